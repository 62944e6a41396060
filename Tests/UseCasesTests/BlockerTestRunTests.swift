import BlockerTest
import DNS
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("A blocker test run (BlockerTestRun)", .serialized)
struct BlockerTestRunTests {
  @Test("Through a DNS server: every domain probed, the report annotated with the lists, not saved")
  func throughServer() async throws {
    let updated = try UpdatedStore()
    defer { updated.remove() }
    try updated.add("||ads.website^\n", key: "ads")
    try await updated.update()
    let answers: [String: String] = ["tracker.website": "192.0.2.9", "example.com": "198.51.100.1"]
    let behaviour: FakeDNSServer.Behaviour = { request in
      guard let question = request.message?.questions.first else { return [] }
      let name = question.name.hasSuffix(".") ? String(question.name.dropLast()) : question.name
      guard question.type == .a, let text = answers[name], let address = IPv4Address(text) else {
        let code: ResponseCode = name.hasSuffix("ads.website") ? .nxDomain : .noError
        return [.bytes(FakeDNSServer.response(to: request, answers: [], code: code))]
      }
      return [
        .bytes(FakeDNSServer.response(to: request, answers: [Record(name: question.name, data: .a(address))]))
      ]
    }
    try await FakeDNSServer.with(behaviour) { server in
      let registry = Registry([
        TestDomain(hostname: "x.ads.website", category: "Ads", provider: "A"),
        TestDomain(hostname: "tracker.website", category: "Ads", provider: "B"),
        TestDomain(hostname: "example.com", category: "Control", provider: "IANA"),
      ])
      let run = BlockerTestRun(
        through: .dns(try Resolver(server: "127.0.0.1:\(server.port)")), timeout: .seconds(30),
        maximumDuration: .seconds(300))  // the whole suite at once on 2 cores is slow: never a wrong answer
      let seen = Counter()
      let report = try await run.run(registry, store: updated.store) { _ in seen.increment() }
      let outcomes = Dictionary(uniqueKeysWithValues: report.results.map { ($0.hostname, $0.outcome) })
      #expect(outcomes == ["x.ads.website": .blocked, "tracker.website": .reachable])
      #expect(report.results.first { $0.hostname == "tracker.website" }?.listedBy == [])
      let saved = try updated.store.testRuns()
      #expect(report.id == nil && saved.isEmpty)
      #expect(seen.value > 0)
    }
  }

  @Test("16 HTTPS connections or 64 lookups at once unless told")
  func concurrency() {
    #expect(BlockerTestRun.defaultConcurrency(for: .https) == 16)
    #expect(BlockerTestRun.defaultConcurrency(for: .dns) == 64)
    #expect(BlockerTestRun.defaultConcurrency(for: .system) == 64)
    #expect(BlockerTestRun.Through.https.kind == .https && BlockerTestRun.Through.system.kind == .system)
  }
}

/// A count events may add to from any thread.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
