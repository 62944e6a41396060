import Foundation
import Store
import TestSupport
import Testing

@Suite("Blocker test runs and custom test domains in the store")
struct StoreTestRunsTests {
  @Test("Runs are saved with an id and listed newest first; an unknown id lists the known ones")
  func runs() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let first = try store.saveTestRun(
      TestRunRecord(
        startedAt: start, probe: "dns", target: "127.0.0.1:53", milliseconds: 12, blocked: 3, reachable: 1,
        inconclusive: 0, report: Data("{}".utf8)))
    let second = try store.saveTestRun(
      TestRunRecord(
        startedAt: start.addingTimeInterval(5), probe: "system", target: "system resolver", milliseconds: 40,
        blocked: 0, reachable: 4, inconclusive: 0, report: Data("{}".utf8)))
    #expect(try store.testRuns().map(\.id) == [second.id, first.id])
    #expect(try store.testRun(id: first.id!) == first)
    #expect(try store.testRuns(limit: 1).count == 1)
    do {
      _ = try store.testRun(id: 42)
      Issue.record("an unknown run was found")
    } catch {
      guard case .notFound(_, _, let known) = error else { throw error }
      #expect(Set(known) == [String(first.id!), String(second.id!)])
    }
  }

  @Test("Custom test domains are added, recategorised and removed; removing an unknown one fails")
  func customDomains() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try Store.open(DataDirectory(url: directory.file("data")))
    try store.addCustomTestDomain(CustomTestDomain(hostname: "ads.website", category: "Ads", provider: "Me"))
    try store.addCustomTestDomain(CustomTestDomain(hostname: "ads.website", category: "Mix", provider: "Me"))
    #expect(try store.customTestDomains().map(\.category) == ["Mix"])
    try store.removeCustomTestDomain("ads.website")
    #expect(try store.customTestDomains().isEmpty)
    #expect(throws: StoreError.self) { try store.removeCustomTestDomain("ads.website") }
  }
}
