import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("A profile's snapshot, read in one transaction")
struct StoreSnapshotTests {
  @Test("It holds what the separate reads give: profile, profiles, sources, rules, compile, runs, fingerprint")
  func sameAsSeparateReads() async throws {
    try await withStore { store, _ throws in
      let (a, _) = try store.addSource(web("a"))
      _ = try store.addSource(web("b"))
      _ = try await store.save(["x.website"], for: a)
      _ = try store.addRule("keep.website", action: .allow)
      _ = try store.createProfile("kids", sources: [web("c")])
      let run = try store.saveTestRun(
        TestRunRecord(
          startedAt: Date(timeIntervalSince1970: 1_800_000_000), probe: "dns", target: "127.0.0.1:53",
          milliseconds: 12, blocked: 1, reachable: 3, inconclusive: 0, report: Data("{}".utf8)))

      let snapshot = try store.snapshot()
      let profile = try store.activeProfile()
      #expect(snapshot.profile == profile)
      #expect(snapshot.profiles == (try store.profiles()))
      #expect(snapshot.sources.map(\.source) == (try store.sources()).map(\.source))
      #expect(snapshot.sources.map(\.enabled) == [true, true])
      #expect(snapshot.rules == (try store.rules()))
      #expect(snapshot.compiled == (try store.compiled(profile)))
      #expect(snapshot.lastUpdate == (try store.runs(of: profile, limit: 1)).first)
      #expect(snapshot.lastTest == run)
      #expect(snapshot.fingerprint == (try store.currentFingerprint(of: profile)))
      #expect(!snapshot.isCompiledListCurrent, "never compiled")

      let kids = try store.snapshot(of: "KIDS")
      #expect(kids.profile.name == "kids")
      #expect(kids.sources.map(\.source.location) == ["https://lists.website/c.txt"])
      #expect(kids.rules.isEmpty)
      #expect(kids.fingerprint == (try store.currentFingerprint(of: kids.profile)))
      #expect(throws: StoreError.self) { try store.snapshot(of: "nosuch") }
    }
  }
}
