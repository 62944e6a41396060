import Foundation
import Store
import TestSupport
import Testing

@Suite("Update run records")
struct UpdateRunTests {
  func run(_ statuses: [Source.Status]) -> UpdateRun {
    UpdateRun(
      profileID: 1, profileName: "default", startedAt: Date(timeIntervalSince1970: 0),
      finishedAt: Date(timeIntervalSince1970: 5), forced: true,
      results: statuses.enumerated().map { .init(key: "s\($0.offset)", status: $0.element) }, names: 42)
  }

  @Test("Counts come from the results")
  func counts() {
    let record = run([.updated, .updated, .unchanged, .failed, .unchanged, .unchanged])
    #expect(record.updated == 2)
    #expect(record.unchanged == 3)
    #expect(record.failed == 1)
    #expect(record.names == 42)
    #expect(record.forced)
    #expect(record.id == nil)
  }

  @Test(
    "The outcome is completed without failures, failed when all failed, partial otherwise",
    arguments: [
      ([Source.Status.updated, .unchanged], UpdateRun.Outcome.completed),
      ([.updated], .completed),
      ([], .completed),
      ([.failed], .failed),
      ([.failed, .failed], .failed),
      ([.failed, .unchanged], .partial),
      ([.updated, .failed, .updated], .partial),
    ])
  func outcome(statuses: [Source.Status], expected: UpdateRun.Outcome) {
    #expect(run(statuses).outcome == expected)
  }

  @Test("A result defaults to no message, no names, nothing downloaded")
  func resultDefaults() {
    let result = UpdateRun.SourceResult(key: "k", status: .unchanged)
    #expect(result.message == nil)
    #expect(result.names == nil)
    #expect(result.bytesDownloaded == 0)
    #expect(result.seconds == 0)
  }

  @Test("A run and a compiled profile survive JSON")
  func codable() throws {
    var record = run([.updated, .failed])
    record.results[1].message = "HTTP 500"
    let decoded = try JSONDecoder().decode(UpdateRun.self, from: try JSONEncoder().encode(record))
    #expect(decoded == record)
    let compiled = CompiledProfile(
      profileID: 3, file: "profiles/3-ab.domains", sha256: "ab", names: 9, fingerprint: "fp",
      compiledAt: Date(timeIntervalSince1970: 7), ruleCounts: ["deny x.website": 1])
    #expect(try JSONDecoder().decode(CompiledProfile.self, from: try JSONEncoder().encode(compiled)) == compiled)
  }

  @Test("A saved run reads back with its outcome and results")
  func stored() async throws {
    try await withStore { store, _ throws in
      let profile = try store.activeProfile()
      var record = run([.failed, .failed])
      record.profileID = profile.id
      _ = try await store.commit([], run: record, compiled: nil)
      let saved = try #require(try store.runs().first)
      #expect(saved.outcome == .failed)
      #expect(saved.failed == 2)
      #expect(saved.results.map(\.key) == ["s0", "s1"])
      #expect(saved.forced)
    }
  }
}
