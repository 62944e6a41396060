import Downloads
import Foundation
import NIOCore
import TestSupport
import Testing

@Suite("Cancelling, superseding and time limits")
struct DownloadCancellationTests {
  let body = seededBytes(count: 200_000)

  /// Iterates a stream until `stop` says so; returns the events seen.
  func events(
    _ stream: AsyncStream<DownloadEvent>, until stop: (DownloadEvent) -> Bool
  ) async -> [DownloadEvent] {
    var seen: [DownloadEvent] = []
    for await event in stream {
      seen.append(event)
      if stop(event) { break }
    }
    return seen
  }

  @Test("cancel(url) stops the transfer, ends the stream with cancelled and removes the temp file")
  func cancelByURL() async throws {
    try await withFixture { server, manager, directory in
      server.route("/stall", .stall(body: body, after: 50_000))
      let url = server.url("/stall")
      var all: [DownloadEvent] = []
      for await event in manager.download(url) {
        all.append(event)
        if case .progress = event, all.filter({ if case .progress = $0 { true } else { false } }).count == 1 {
          #expect(await manager.activeURLs == [url.absoluteString])
          await manager.cancel(url)
        }
      }
      #expect(all.last == .failed(.cancelled(url: url.absoluteString)))
      #expect(directory.contents().isEmpty)
      #expect(await manager.activeURLs.isEmpty)
    }
  }

  @Test("Cancelling the consumer's task cancels the transfer and cleans up")
  func cancelConsumer() async throws {
    try await withFixture { server, manager, directory in
      server.route("/stall", .stall(body: body, after: 50_000))
      let stream = manager.download(server.url("/stall"))
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          for await event in stream {
            if case .progress = event { break }
          }
          // Keep the consumer alive until cancelled: the transfer must stop because of the cancel.
          while !Task.isCancelled { await Task.yield() }
        }
        #expect(await eventually { await manager.activeURLs.count == 1 })
        group.cancelAll()
      }
      #expect(await eventually { await manager.activeURLs.isEmpty })
      #expect(await eventually { directory.contents().isEmpty })
    }
  }

  @Test("Regression: shutdown returns only once every transfer has ended and removed its temporary file")
  func shutdownWaits() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/stall", .stall(body: body, after: 50_000))
        let manager = DownloadManager(configuration: testConfiguration(directory, attempts: 3))
        let stream = manager.download(server.url("/stall"))
        await withTaskGroup(of: Void.self) { group in
          // A consumer that keeps the stream open: the transfer ends because of the shutdown alone.
          group.addTask { for await _ in stream {} }
          #expect(await eventually(within: 30) { directory.contents().contains { $0.hasSuffix(".part") } })
          await manager.shutdown()
          // Checked at once, not eventually: `sanehosts fetch` exits right after this on Ctrl-C, and
          // before the fix the transfer's task was often still removing its `.part` file here.
          #expect(directory.contents().isEmpty, "\(directory.contents())")
          #expect(await manager.activeURLs.isEmpty)
          await group.waitForAll()
        }
      }
    }
  }

  @Test("Regression: shutdown during a local file's copy returns only after the copy's temporary file is gone")
  func shutdownWaitsForFileCopy() async throws {
    try await TemporaryDirectory.with { sources in
      try await TemporaryDirectory.with { directory in
        // Large enough that the copy is still under way when the shutdown comes.
        let source = sources.file("big.txt")
        try Data(repeating: 0x61, count: 64 << 20).write(to: source)
        let manager = DownloadManager(configuration: testConfiguration(directory, attempts: 1))
        let stream = manager.download(source)
        await withTaskGroup(of: Void.self) { group in
          group.addTask { for await _ in stream {} }
          #expect(await eventually(within: 30) { directory.contents().contains { $0.hasSuffix(".part") } })
          await manager.shutdown()
          // Before the fix, shutdown returned at once (no HTTP request was in flight) while the copy went
          // on, and its `.part` file was still there.
          #expect(directory.contents().isEmpty, "\(directory.contents())")
          await group.waitForAll()
        }
      }
    }
  }

  @Test("Dropping the stream after the first event stops the transfer")
  func dropStream() async throws {
    try await withFixture { server, manager, directory in
      server.route("/stall", .stall(body: body, after: 50_000))
      let seen = await events(manager.download(server.url("/stall")), until: { _ in true })
      #expect(seen == [.connecting(attempt: 1)])
      #expect(await eventually { await manager.activeURLs.isEmpty })
      #expect(await eventually { directory.contents().isEmpty })
    }
  }

  @Test("A second request for a URL in flight supersedes the first")
  func supersede() async throws {
    try await withFixture { server, manager, directory in
      server.route("/list", .stall(body: body, after: 10_000), .resource(.init(body)))
      let url = server.url("/list")
      let first = manager.download(url)
      var firstEvents: [DownloadEvent] = []
      for await event in first {
        firstEvents.append(event)
        if case .progress = event { break }
      }
      let second = await collectEvents(manager.download(url))
      var rest: [DownloadEvent] = []
      for await event in first { rest.append(event) }
      #expect(rest.last == .failed(.superseded(url: url.absoluteString)))
      let done = try #require(second.completed)
      #expect(try Data(contentsOf: done.fileURL) == Data(body))
      #expect(directory.contents() == [done.fileURL.lastPathComponent])
    }
  }

  @Test("The total time limit ends a stalled transfer, measured on the injected clock")
  func totalTimeout() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/stall", .stall(body: body, after: 10_000))
        let clock = ManualClock()
        var configuration = testConfiguration(directory)
        configuration.totalTimeout = .seconds(60)
        try await DownloadManager.withManager(configuration: configuration, clock: clock) { manager in
          var all: [DownloadEvent] = []
          for await event in manager.download(server.url("/stall")) {
            all.append(event)
            if case .progress = event {
              await clock.waitForSleepers(1)
              clock.advance(by: .seconds(60))
            }
          }
          #expect(
            all.last == .failed(.timeout(url: server.url("/stall").absoluteString, kind: .total, limit: .seconds(60))))
          #expect(directory.contents().isEmpty)
        }
      }
    }
  }

  @Test("Retry backoff waits on the injected clock and grows per attempt")
  func backoff() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/flaky", .status(503), .status(502), .resource(.init("0.0.0.0 ads.website\n")))
        let clock = ManualClock()
        var configuration = testConfiguration(directory)
        configuration.retry = RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(2), multiplier: 3)
        try await DownloadManager.withManager(configuration: configuration, clock: clock) { manager in
          var delays: [Duration] = []
          var last: DownloadEvent?
          for await event in manager.download(server.url("/flaky")) {
            last = event
            if case .retrying(_, _, let delay, _) = event {
              delays.append(delay)
              await clock.waitForSleepers(2)  // the total time limit and the backoff
              #expect(server.requests(to: "/flaky").count == delays.count, "no attempt before the clock moves")
              clock.advance(by: delay)
            }
          }
          #expect(delays == [.seconds(2), .seconds(6)])
          if case .completed(let done) = last {
            #expect(done.attempts == 3)
          } else {
            Issue.record("\(String(describing: last))")
          }
        }
      }
    }
  }

  @Test("Progress is throttled: on a frozen clock only the first and the final count are sent")
  func throttled() async throws {
    try await TemporaryDirectory.with { directory in
      try await FixtureServer.with { server in
        server.route("/slow", .trickle(body: body, chunk: 10_000, interval: .milliseconds(1)))
        try await DownloadManager.withManager(configuration: testConfiguration(directory), clock: ManualClock()) {
          manager in
          let all = await collectEvents(manager.download(server.url("/slow")))
          let progress = all.progress
          #expect(progress.count == 2)
          #expect(progress.last?.bytesReceived == Int64(body.count))
          #expect(all.completed != nil)
        }
      }
    }
  }
}
