import Blocklists
import Downloads
import Foundation
import NIOCore
import TestSupport
import Testing

@testable import Store
@testable import Updates

@Suite("Cancelling an update, and two updates at once", .serialized)
struct UpdaterCancellationTests {
  /// Where to cancel: a test for each phase of a source, and for the compile and the commit.
  enum Point: String, CaseIterable, Sendable {
    case started, connecting, downloading, parsing, validating, saving, compiling, committing
  }

  /// A store that has had one good update, whose sources have all changed on the server since.
  static func prepared(_ server: FixtureServer) async throws -> Harness {
    let harness = try Harness()
    server.route("/a", .resource(.init(try realList("easylist.hosts.txt"), etag: "\"a1\"")))
    server.route("/b", .resource(.init("0.0.0.0 b1.website\n", etag: "\"b1\"")))
    try harness.add(server.url("/a"), key: "a")
    try harness.add(server.url("/b"), key: "b")
    _ = try await harness.update()
    // Changed content, sent slowly enough that a download is seen in progress.
    var body = try realList("adguarddns.hosts.txt")
    body.append(contentsOf: Array("0.0.0.0 extra.website\n".utf8))
    server.route("/a", .trickle(body: body, chunk: 256 * 1024, interval: .milliseconds(5)))
    server.route("/b", .resource(.init("0.0.0.0 b2.website\n", etag: "\"b2\"")))
    return harness
  }

  static func matches(_ event: UpdateEvent, _ point: Point) -> Bool {
    switch (event, point) {
    case (.started, .started), (.compiling, .compiling), (.saving, .committing): true
    case (.source("a", let phase), _):
      switch (phase, point) {
      case (.connecting, .connecting), (.downloading, .downloading), (.parsing, .parsing),
        (.validating, .validating), (.saving, .saving):
        true
      default: false
      }
    default: false
    }
  }

  @Test("Cancelling at any phase leaves the store exactly as it was", arguments: Point.allCases)
  func cancelAtPhase(_ point: Point) async throws {
    try await FixtureServer.with { server in
      let harness = try await Self.prepared(server)
      defer { harness.remove() }
      let before = try harness.snapshot()

      let canceller = Canceller()
      let task = Task {
        try await harness.update { event in
          if Self.matches(event, point) { canceller.cancel() }
        }
      }
      canceller.set(task)
      await #expect(throws: CancellationError.self, "cancelled at \(point)") { _ = try await task.value }
      #expect(canceller.didFire, "the phase \(point) was reached")

      #expect(try harness.snapshot() == before, "cancelled at \(point)")
      // A cancelled transfer removes its partial file on the download manager's own task, just after.
      #expect(await eventually { harness.stagingIsEmpty }, "cancelled at \(point)")
      // The lock is released: the next update runs and sees the changes.
      let summary = try await harness.update()
      #expect(summary.run.updated == 2)
    }
  }

  /// Starts an update and returns once its first source is downloading (so it holds the lock).
  static func startedUpdate(_ harness: Harness) async -> Task<UpdateSummary, any Error> {
    let downloading = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      try await harness.update { event in
        if case .source("a", .downloading) = event { downloading.continuation.yield() }
      }
    }
    for await _ in downloading.stream { break }
    return task
  }

  @Test("A second update while one runs is refused with the owner's process id; nothing is corrupted")
  func concurrentUpdateRefused() async throws {
    try await FixtureServer.with { server in
      let harness = try await Self.prepared(server)
      defer { harness.remove() }
      let first = await Self.startedUpdate(harness)
      do {
        _ = try await harness.update()
        Issue.record("the second update ran")
      } catch UpdateError.store(.updateRunning(let pid, _)) {
        #expect(pid == getpid())
      }
      let summary = try await first.value
      #expect(summary.run.updated == 2)
      #expect(try harness.store.runs().count == 2)
    }
  }

  @Test("With waitForLock, a second update waits for the first and then finds everything unchanged")
  func concurrentUpdateWaits() async throws {
    try await FixtureServer.with { server in
      let harness = try await Self.prepared(server)
      defer { harness.remove() }
      let first = await Self.startedUpdate(harness)
      let second = try await Task.detached {
        try await harness.update(options: Updater.Options(waitForLock: true))
      }.value
      let firstSummary = try await first.value
      #expect(firstSummary.run.updated == 2)
      #expect(second.run.unchanged == 2)
      #expect(try harness.store.runs().count == 3)
    }
  }
}
