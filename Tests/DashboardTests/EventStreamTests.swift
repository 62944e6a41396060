import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Loading
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import TestSupport
import Testing

@testable import Dashboard

@Suite("Server-Sent Events")
struct DashboardEventsTests {
  @Test("The stream opens with a retry hint, replays the current status, then sends each change as one event")
  func stream() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        harness.dashboard.updates.relay.update(UpdateStatus(state: .running, profile: "p"))
        let first = try await client.events("/api/update/events") { _ in true }
        #expect(first.first?["state"] as? String == "running")
        #expect(first.first?["profile"] as? String == "p")
        harness.dashboard.updates.relay.update(UpdateStatus(state: .finished, message: "done"))
        let second = try await client.events("/api/update/events") { _ in true }
        #expect(second.first?["message"] as? String == "done")
      }
    }
  }

  @Test("An idle stream sends keep-alive comments on the injected clock")
  func heartbeat() async throws {
    try await DashboardHarness.with { harness in
      var dashboard = harness.dashboard
      let clock = ManualClock()
      dashboard.clock = clock
      dashboard.heartbeat = .seconds(15)
      let response = dashboard.events.statuses(dashboard.tests.relay)
      #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
      let app = Application(
        router: {
          let router = Router(context: DashboardContext.self)
          router.get("events") { _, _ in response }
          return router
        }())
      try await app.test(.live) { client async throws in
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            while !Task.isCancelled {
              clock.advance(by: .seconds(15))
              try await Task.sleep(for: .milliseconds(20))
            }
          }
          let text = try await Self.read(port: client.port!, until: ": keep-alive")
          #expect(text.hasPrefix("HTTP/1.1 200"))
          #expect(text.contains("retry: 2000\n\nevent: status\ndata: {"))
          group.cancelAll()
        }
      }
    }
  }

  // Alone it takes 0.1 s; under the whole suite's load 56–75 s (its waits get the shared threads late), so
  // the limit is 3 minutes: it only catches a stream that never ends.
  @Test("An open event stream ends when the server shuts down, and its observer is removed", .timeLimit(.minutes(3)))
  func shutdownEndsStreams() async throws {
    try await DashboardHarness.with { harness in
      let (ports, port) = AsyncStream.makeStream(of: Int.self)
      let app = harness.dashboard.application(logger: Logger(label: "test")) { port.yield($0) }
      let services = ServiceGroup(
        configuration: .init(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "test")))
      let relay = harness.dashboard.updates.relay
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        let client = LiveClient(port: try #require(await iterator.next()), csrf: "")
        group.addTask {
          // Reads until the stream ends; never stops by itself.
          let statuses = try await client.events("/api/update/events") { _ in false }
          #expect(statuses.first?["state"] as? String == "idle")
        }
        #expect(await eventually(within: 30) { relay.observerCount == 1 })
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        try await client.http.shutdown()
      }
      #expect(await eventually(within: 30) { relay.observerCount == 0 })
    }
  }

  @Test("A fragment's lines go as data lines (a client joins them with line breaks); a status as one line of JSON")
  func messages() {
    #expect(EventStream.message("fragment", text: "<a>\n<b>") == "event: fragment\ndata: <a>\ndata: <b>\n\n")
    #expect(EventStream.message("status", ["state": "idle"]) == "event: status\ndata: {\"state\":\"idle\"}\n\n")
  }

  /// Reads a raw HTTP response from 127.0.0.1:port until `marker` appears.
  static func read(port: Int, until marker: String) async throws -> String {
    let client = LiveClient(port: port, csrf: "")
    let statuses = try await client.http.execute(.init(url: "http://127.0.0.1:\(port)/events"), timeout: .seconds(30))
    var text = "HTTP/1.1 \(statuses.status.code)\n"
    for try await chunk in statuses.body {
      text += String(buffer: chunk)
      if text.contains(marker) { break }
    }
    try await client.http.shutdown()
    return text
  }
}
