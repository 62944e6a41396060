import Files
import Foundation
import Hummingbird
import Loading
import NIOCore
import ServiceLifecycle

/// Server-Sent Events responses: a job's status as JSON for the API, or rendered fragments for a page.
///
/// An idle stream sends a comment every `heartbeat`, so a closed page is noticed and its observer
/// removed; every stream ends when the server shuts down.
struct EventStream: Sendable {
  /// How often an idle stream sends a comment.
  let heartbeat: Duration
  /// The clock of the heartbeat.
  let clock: any Clock<Duration>

  /// A stream of a job's status: the current one at once, then every change, each as
  /// `event: status` and one line of JSON.
  ///
  /// Fed by the job's replaying relay, so a page that opens or reconnects in the middle of a run sees
  /// where it is immediately.
  func statuses<Status: JobStatus>(_ relay: StateRelay<Status>) -> Response {
    response { continuation in
      for await status in relay.values() { continuation.yield(Self.message("status", status)) }
    }
  }

  /// A stream of a job's status rendered by `render` (a fragment of a page), each as `event: fragment`.
  func fragments<Status: JobStatus>(_ relay: StateRelay<Status>, render: @escaping @Sendable (Status) -> String)
    -> Response
  {
    response { continuation in
      for await status in relay.values() { continuation.yield(Self.message("fragment", text: render(status))) }
    }
  }

  /// One message: `event: NAME` and the value as one line of JSON (keys sorted, dates as ISO 8601).
  static func message(_ name: String, _ value: some Encodable) -> String {
    let data = (try? JSONCoding.encode(value)) ?? Data("{}".utf8)
    return "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
  }

  /// One message: `event: NAME` and the text as `data:` lines (a client joins them with line breaks).
  static func message(_ name: String, text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }
    return "event: \(name)\n\(lines.joined())\n"
  }

  /// A response whose messages `produce` yields (each a whole `event:`/`data:` block), with a comment
  /// every `heartbeat` while idle; it ends when `produce` returns, the page goes away or the server
  /// shuts down (then `produce` is cancelled).
  func response(_ produce: @escaping @Sendable (AsyncStream<String>.Continuation) async -> Void) -> Response {
    let (heartbeat, clock) = (heartbeat, clock)
    let body = ResponseBody { writer in
      let (messages, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(256))
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          await produce(continuation)
          continuation.finish()
        }
        group.addTask {
          while !Task.isCancelled {
            try await clock.sleep(for: heartbeat)
            continuation.yield(": keep-alive\n\n")
          }
        }
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        for await message in messages.cancelOnGracefulShutdown() {
          try await writer.write(ByteBuffer(string: message))
        }
        group.cancelAll()
      }
      try await writer.finish(nil)
    }
    return Response(
      status: .ok,
      headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
      body: body)
  }
}
