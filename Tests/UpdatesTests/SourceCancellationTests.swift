import Blocklists
import Downloads
import Foundation
import Loading
import Locking
import TestSupport
import Testing

@testable import Store
@testable import Updates

@Suite("Cancelling one source of an update while the others go on", .serialized)
struct SourceCancellationTests {
  /// Where source `a` is cancelled: in each phase of its fetch.
  enum Point: String, CaseIterable, Sendable {
    case connecting, downloading, parsing, validating, saving
  }

  static func reached(_ event: UpdateEvent, _ point: Point) -> Bool {
    guard case .source("a", let phase) = event else { return false }
    return phase.name == point.rawValue
  }

  /// Source `a`'s copy as the store holds it: its file, hash and names.
  static func copyOfA(_ harness: Harness) throws -> [String?] {
    let source = try harness.store.sources().map(\.source).first { $0.key == "a" }!
    return [source.cacheFile, source.sha256, source.unique.map(String.init)]
  }

  @Test(
    "Regression: transfers stopped by the run's cancellation before its tasks are cancelled cancel the run, not one source"
  )
  func transfersStoppedFirst() async throws {
    try await FixtureServer.with { server in
      let harness = try await UpdaterCancellationTests.prepared(server)
      defer { harness.remove() }
      // The new copy of `a` stops coming after its first bytes, so the run is still downloading when the
      // transfers are stopped, however late that comes (trickled, it could end first in a loaded run).
      server.route("/a", .stall(body: try realList("adguarddns.hosts.txt"), after: 64 * 1024))
      let before = try harness.snapshot()
      let downloading = Latch()
      // As Ctrl-C and the dashboard's Cancel do: every transfer is stopped first, the tasks are cancelled
      // only after (here: never), so a fetch sees its download cancelled while its task is not.
      await #expect(throws: CancellationError.self) {
        try await DownloadManager.withManager(configuration: harness.configuration()) { manager in
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              await downloading.wait()
              await manager.cancelAll()
            }
            _ = try await Updater(store: harness.store, client: manager).update(
              profile: nil, options: Updater.Options(), cancellation: SourceCancellation()
            ) { event in
              if Self.reached(event, .downloading) { downloading.signal() }
            }
            try await group.waitForAll()
          }
        }
      }
      let after = try harness.snapshot()
      // What differs, when something does (once, in a loaded full run, something did).
      let lines = (before: Set(before.split(separator: "\n")), after: Set(after.split(separator: "\n")))
      #expect(
        after == before,
        "nothing of the run is saved; only before: \(lines.before.subtracting(lines.after).sorted()), only after: \(lines.after.subtracting(lines.before).sorted())"
      )
    }
  }

  @Test("A source cancelled at any phase keeps its previous copy; the others are saved", arguments: Point.allCases)
  func cancelOneSource(_ point: Point) async throws {
    try await FixtureServer.with { server in
      let harness = try await UpdaterCancellationTests.prepared(server)
      defer { harness.remove() }
      let before = try Self.copyOfA(harness)
      let lists = Set(try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path))

      let cancellation = SourceCancellation()
      let log = EventLog()
      let fired = Latched()
      let summary = try await harness.update(cancellation: cancellation) { event in
        log.append(event)
        if Self.reached(event, point), fired.first() { #expect(cancellation.cancel("a")) }
      }
      #expect(fired.didFire, "the phase \(point) was reached")

      let failure = try #require(summary.outcome("a")?.failure, "cancelled at \(point)")
      #expect(failure.kind == .cancelled)
      #expect(failure.text == "a: cancelled. The previous copy is kept.")
      #expect(summary.outcome("b")?.name == "updated", "the other source goes on")
      #expect(summary.run.outcome == .partial)
      #expect(log.phases(of: "a").last == "failed")

      // Nothing of the cancelled download is kept; the profile compiles a's previous copy with b's new one.
      #expect(try Self.copyOfA(harness) == before, "cancelled at \(point)")
      let after = Set(try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path))
      #expect(
        after.subtracting(lists).allSatisfy { $0.hasPrefix("b-") },
        "new files: \(after.subtracting(lists).sorted()), before: \(lists.sorted())")
      #expect(await eventually { harness.stagingIsEmpty }, "cancelled at \(point)")
      let compiled = try #require(summary.compiled)
      let saved = try #require(
        CompiledList.readArchive(
          at: harness.store.directory.file(compiled.file).path, fingerprint: compiled.fingerprint, rules: RuleSet()))
      #expect(saved.names.contains("b2.website"))
      #expect(!saved.names.contains("extra.website"), "the cancelled copy's names are not in the profile")
      #expect(!cancellation.cancel("a"), "a second cancel of an ended source does nothing")

      // The next update fetches it again.
      let next = try await harness.update()
      #expect(next.outcome("a")?.name == "updated")
    }
  }

  @Test(
    "A source whose new copy waits for its turn to be merged can still be cancelled: the copy is dropped, the previous one kept"
  )
  func cancelWhileWaitingToMerge() async throws {
    try await FixtureServer.with { server in
      let harness = try await UpdaterCancellationTests.prepared(server)
      defer { harness.remove() }
      let lists = Set(try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path))
      let cancellation = SourceCancellation()
      let log = EventLog()
      let accepted = Locked<Bool?>(nil)
      // a (first in the profile) trickles in; b (second, a line) is fetched at once and waits for a to be
      // merged. When a's download is complete and it starts parsing, b's fetch has long ended: b is
      // cancelled while its copy waits (a cancel then came too late, and the copy was saved).
      let summary = try await harness.update(cancellation: cancellation) { event in
        log.append(event)
        guard case .source("a", .parsing) = event, log.phases(of: "b").last == "saving" else { return }
        accepted.withLock { accepted in
          if accepted == nil { accepted = cancellation.cancel("b") }
        }
      }
      #expect(accepted.withLock { $0 } == true, "b was cancelled while it waited: \(log.phases(of: "b"))")
      #expect(
        log.phases(of: "b") == ["waiting", "connecting", "downloading", "parsing", "validating", "saving", "failed"])
      #expect(summary.outcome("b")?.failure?.kind == .cancelled)
      #expect(summary.outcome("a")?.name == "updated")
      let after = Set(try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path))
      #expect(
        after.subtracting(lists).allSatisfy { $0.hasPrefix("a-") },
        "nothing of b's new copy is kept: \(after.subtracting(lists).sorted())")
      let compiled = try #require(summary.compiled)
      let saved = try #require(
        CompiledList.readArchive(
          at: harness.store.directory.file(compiled.file).path, fingerprint: compiled.fingerprint, rules: RuleSet()))
      #expect(saved.names.contains("b1.website"), "b's previous copy is compiled")
      #expect(!saved.names.contains("b2.website"))
      #expect(saved.names.contains("extra.website"), "a's new copy is compiled")
    }
  }

  @Test("A cancel after a source is done is refused, and the source stays updated")
  func cancelAfterDone() async throws {
    try await FixtureServer.with { server in
      let harness = try await UpdaterCancellationTests.prepared(server)
      defer { harness.remove() }
      let cancellation = SourceCancellation()
      let accepted = Locked<Bool?>(nil)
      let summary = try await harness.update(cancellation: cancellation) { event in
        if case .source("a", .done) = event { accepted.withLock { $0 = cancellation.cancel("a") } }
      }
      #expect(accepted.withLock { $0 } == false)
      #expect(summary.outcome("a")?.name == "updated")
      let source = try harness.store.sources().map(\.source).first { $0.key == "a" }!
      #expect(source.status == .updated)
    }
  }

  @Test("A source cancelled while it waits for a slot never starts")
  func cancelWaitingSource() async throws {
    try await FixtureServer.with { server in
      let harness = try await UpdaterCancellationTests.prepared(server)
      defer { harness.remove() }
      let cancellation = SourceCancellation()
      let log = EventLog()
      let fired = Latched()
      // One source at a time: b waits while a downloads.
      let summary = try await harness.update(
        options: Updater.Options(concurrentSources: 1), cancellation: cancellation
      ) { event in
        log.append(event)
        if Self.reached(event, .downloading), fired.first() { #expect(cancellation.cancel("b")) }
      }
      #expect(log.phases(of: "b") == ["waiting", "failed"], "b never connected: \(log.phases(of: "b"))")
      #expect(summary.outcome("b")?.failure?.kind == .cancelled)
      #expect(summary.outcome("a")?.name == "updated")
    }
  }

  @Test("Ending a source as cancelled records it like a failure, with the previous copy kept")
  func cancelledSourceIsRecorded() async throws {
    try await FixtureServer.with { server in
      let harness = try await UpdaterCancellationTests.prepared(server)
      defer { harness.remove() }
      let cancellation = SourceCancellation()
      let fired = Latched()
      _ = try await harness.update(cancellation: cancellation) { event in
        if Self.reached(event, .downloading), fired.first() { cancellation.cancel("a") }
      }
      let source = try harness.store.sources().map(\.source).first { $0.key == "a" }!
      #expect(source.status == .failed)
      #expect(source.message == "cancelled. The previous copy is kept.")
      #expect(source.cacheFile != nil)
    }
  }
}

/// True once: for the first event of a kind.
final class Latched: Sendable {
  private let fired = Locked(false)

  /// True the first time only.
  func first() -> Bool {
    fired.withLock { fired in
      defer { fired = true }
      return !fired
    }
  }

  var didFire: Bool { fired.withLock { $0 } }
}
