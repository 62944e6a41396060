import Downloads
import Files
import Foundation
import Hummingbird
import Loading
import ServiceLifecycle

extension Dashboard {
  /// A Server-Sent Events stream of a job's status: the current one at once, then every change.
  ///
  /// Fed by the job's replaying relay, so a page that opens or reconnects in the middle of a run sees
  /// where it is immediately. An idle stream sends a comment every `heartbeat`, so a closed page is
  /// noticed and its observer removed; the stream ends when the server shuts down.
  func events<Status: JobStatus>(_ relay: StateRelay<Status>) -> Response {
    eventStream { continuation in
      for await status in relay.values() { continuation.yield(Self.eventMessage("status", status)) }
    }
  }

  /// One Server-Sent Events message: `event: NAME` and the value as one line of JSON (keys sorted, dates
  /// as ISO 8601).
  static func eventMessage(_ name: String, _ value: some Encodable) -> String {
    let data = (try? JSONCoding.encode(value)) ?? Data("{}".utf8)
    return "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
  }

  /// A Server-Sent Events response whose messages `produce` yields (each a whole `event:`/`data:` block),
  /// with a comment every `heartbeat` while idle; it ends when `produce` returns, the page goes away or
  /// the server shuts down (then `produce` is cancelled).
  func eventStream(
    _ produce: @escaping @Sendable (AsyncStream<String>.Continuation) async -> Void
  ) -> Response {
    let heartbeat = self.heartbeat
    let clock = self.clock
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

  func addListRoutes(to router: Router<DashboardContext>) {
    let handler: @Sendable (Request, DashboardContext) async throws -> Response = { request, context in
      let file = try context.parameters.require("file")
      let dot = file.lastIndex(of: ".") ?? file.endIndex
      let name = String(file[..<dot])
      let suffix = dot < file.endIndex ? String(file[file.index(after: dot)...]) : ""
      guard let format = ListCache.Format.allCases.first(where: { $0.fileExtension == suffix }) else {
        throw DashboardError.notFound(
          "No list \"\(file)\": use PROFILE.hosts, PROFILE.txt (one name per line) or PROFILE.adblock.")
      }
      let list = try await lists.list(profile: name, format: format)
      var headers: HTTPFields = [
        .eTag: list.etag, .cacheControl: "no-cache",
        .lastModified: HTTPDate.string(from: list.modified),
      ]
      if let match = request.headers[.ifNoneMatch],
        match.split(separator: ",").contains(where: {
          $0.trimmingCharacters(in: .whitespaces) == list.etag || $0 == "*"
        })
      {
        return Response(status: .notModified, headers: headers)
      }
      headers[.contentType] = "text/plain; charset=utf-8"
      headers[.contentLength] = "\(list.body.count)"
      if request.method == .head { return Response(status: .ok, headers: headers) }
      return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: list.body)))
    }
    router.get("lists/:file", use: handler)
    router.head("lists/:file", use: handler)
  }
}
