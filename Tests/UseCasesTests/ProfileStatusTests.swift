import BlockerTest
import Blocklists
import Foundation
import Store
import Testing

@testable import UseCases

@Suite("A profile's status and what needs attention")
struct ProfileStatusTests {
  static func snapshot(
    _ members: [ProfileSource], compiled: Bool = true, current: Bool = true, lastTest: TestRunRecord? = nil
  ) -> ProfileSnapshot {
    let profile = Profile(id: 1, name: "p")
    return ProfileSnapshot(
      profile: profile, profiles: [profile], sources: members, rules: [],
      compiled: compiled
        ? CompiledProfile(
          profileID: 1, file: "profiles/1.blockset", sha256: "f", names: 10, fingerprint: "f", compiledAt: Date(),
          ruleCounts: [:]) : nil,
      lastUpdate: nil, lastTest: lastTest, fingerprint: current ? "f" : "g")
  }

  @Test("Failed, never downloaded, stale, not a list, out of date; each in the command line's words")
  func warnings() {
    let now = Date()
    var failed = Source(id: 1, key: "f", name: "f", location: "https://x.website/f")
    failed.status = .failed
    failed.message = "HTTP 500"
    failed.cacheFile = "lists/f"
    failed.lastSuccess = now.addingTimeInterval(-10 * 86_400)
    let fresh = Source(id: 2, key: "n", name: "n", location: "https://x.website/n")
    var page = Source(id: 3, key: "w", name: "w", location: "https://x.website/w")
    page.cacheFile = "lists/w"
    var findings = Findings()
    findings.content = .html
    page.findings = findings
    let status = ProfileStatus(
      Self.snapshot(
        [
          ProfileSource(source: failed, enabled: true), ProfileSource(source: fresh, enabled: true),
          ProfileSource(source: page, enabled: true),
        ], current: false),
      outdatedDays: 7, now: now)
    #expect(
      status.warnings == [
        .failed(source: "f", message: "HTTP 500"), .stale(source: "f", lastSuccess: failed.lastSuccess!, days: 10),
        .neverDownloaded(source: "n"), .notAList(source: "w", kind: .html), .changedSinceCompile,
      ])
    let words = status.warnings.map(\.description)
    #expect(words.contains("f failed: HTTP 500"))
    #expect(words.contains("n has never been downloaded: run `sanehosts update`."))
    #expect(words.contains("f is stale: last updated 10 days ago."))
    #expect(
      ProfileStatus(Self.snapshot([ProfileSource(source: failed, enabled: true)]), outdatedDays: 30, now: now)
        .warnings == [.failed(source: "f", message: "HTTP 500")], "within 30 days it is not stale")
  }

  @Test("A held-back copy replaces the failure; a list unchanged or dated by its header too long ago is stale")
  func health() throws {
    let now = Date()
    var held = Source(id: 1, key: "h", name: "h", location: "https://x.website/h")
    held.status = .failed
    held.message = "suspicious shrink"
    held.cacheFile = "lists/h"
    held.accepted = 100
    held.lastSuccess = now
    held.lastChange = now.addingTimeInterval(-40 * 86_400)
    held.heldCopy = SourceUpdate.Copy(
      etag: nil, lastModified: nil, sha256: "s", cacheFile: "lists/h2", bytes: 1, accepted: 10, unique: 0,
      duplicates: 0, rejected: 0, detectedFormat: nil, findings: Findings())
    let status = ProfileStatus(Self.snapshot([ProfileSource(source: held, enabled: true)]), staleDays: 30, now: now)
    let staleness = try #require(held.staleness(days: 30, now: now))
    #expect(
      status.warnings == [
        .heldBack(source: "h", names: 10, previous: 100), .contentStale(source: "h", staleness: staleness),
      ])
    #expect(status.warnings.map(\.description).contains("h may be stale: its content has not changed for 40 days."))
  }

  @Test("No sources, every source disabled, never compiled; a disabled source is not checked")
  func profileWarnings() {
    #expect(ProfileStatus(Self.snapshot([])).warnings == [.noSources(profile: "p")])
    let fresh = Source(id: 4, key: "n", name: "n", location: "https://x.website/n")
    #expect(ProfileStatus(Self.snapshot([ProfileSource(source: fresh, enabled: false)])).warnings == [.allDisabled])
    var saved = fresh
    saved.cacheFile = "lists/n"
    #expect(
      ProfileStatus(Self.snapshot([ProfileSource(source: saved, enabled: true)], compiled: false)).warnings == [
        .notCompiled
      ])
    #expect(ProfileStatus(Self.snapshot([ProfileSource(source: saved, enabled: true)])).warnings.isEmpty)
  }

  @Test("A weak last test is a warning; a strong one is not")
  func weakTest() {
    func record(blocked: Int, reachable: Int) -> TestRunRecord {
      TestRunRecord(
        startedAt: Date(), probe: "dns", target: "x", milliseconds: 1, blocked: blocked, reachable: reachable,
        inconclusive: 0, report: Data())
    }
    var saved = Source(id: 5, key: "n", name: "n", location: "https://x.website/n")
    saved.cacheFile = "lists/n"
    let members = [ProfileSource(source: saved, enabled: true)]
    #expect(ProfileStatus(Self.snapshot(members, lastTest: record(blocked: 1, reachable: 9))).warnings == [.weakTest])
    #expect(ProfileStatus(Self.snapshot(members, lastTest: record(blocked: 9, reachable: 1))).warnings.isEmpty)
  }
}
