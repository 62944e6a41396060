import BlockerTest
import Blocklists
import Foundation
import Store
import TestSupport
import Testing

@testable import UseCases

@Suite("Which lists list a name (TestReport.annotated, Explainer.listing)", .serialized)
struct TestReportListingsTests {
  /// Three sources: a hosts list (exact names), an adblock list (subdomains too), and a list of bare
  /// names the user declared wildcard (subdomains too: a declared format is how every line is read).
  static func store() async throws -> UpdatedStore {
    let updated = try UpdatedStore()
    try updated.add("0.0.0.0 ads.shop.website\n0.0.0.0 shop.website\n", key: "hosts")
    try updated.add("||shop.website^\n", key: "adblock")
    let forced = updated.directory.file("forced.txt")
    try Data("shop.website\n".utf8).write(to: forced)
    try updated.store.addSource(NewSource(location: forced, key: "forced", format: .wildcard))
    try await updated.update()
    return updated
  }

  @Test("The name itself in every source; a parent only where the line's format covers subdomains")
  func listing() async throws {
    let updated = try await Self.store()
    defer { updated.remove() }
    func matches(_ name: String) async throws -> [String] {
      try await Explainer(store: updated.store).listing([name])[name, default: []].map { "\($0.source)=\($0.matched)" }
    }
    // Exact matches first, then nearer parents; sources in key order within each.
    #expect(
      try await matches("ads.shop.website") == [
        "hosts=ads.shop.website", "adblock=shop.website", "forced=shop.website",
      ])
    #expect(try await matches("Deep.Ads.Shop.WEBSITE") == ["adblock=shop.website", "forced=shop.website"])
    #expect(try await matches("shop.website") == ["adblock=shop.website", "forced=shop.website", "hosts=shop.website"])
    #expect(try await matches("shop.blog").isEmpty)
    #expect(try await matches("other-shop.website").isEmpty, "only whole labels are parents")
    #expect(try await matches("not a name").isEmpty)
  }

  @Test("A reachable name gets the lists that list it; a CNAME chain through a listed name is a leak")
  func annotated() async throws {
    let updated = try await Self.store()
    defer { updated.remove() }
    let domains = ["ads.shop.website", "cdn.blog", "clean.blog", "gone.blog"].map {
      TestDomain(hostname: $0, category: "Ads", provider: "P")
    }
    let verdicts = [
      Verdict(.reachable, "192.0.2.1"), Verdict(.reachable, "192.0.2.2", chain: ["cdn.blog", "x.shop.website"]),
      Verdict(.reachable, "192.0.2.3"), Verdict(.blocked, "NXDOMAIN"),
    ]
    let report = TestReport(
      startedAt: Date(), milliseconds: 1, probe: .dns, target: "127.0.0.1:53", timeoutMilliseconds: 1000,
      controls: [],
      results: zip(domains, verdicts).map { DomainResult(domain: $0, verdict: $1, milliseconds: 1) })
    let annotated = await report.annotated(with: updated.store)
    let results = Dictionary(uniqueKeysWithValues: annotated.results.map { ($0.hostname, $0) })
    #expect(
      results["ads.shop.website"]?.listedBy == [
        "hosts", "adblock (as shop.website)", "forced (as shop.website)",
      ])
    #expect(results["cdn.blog"]?.outcome == .leaking)
    #expect(results["cdn.blog"]?.reason.contains("x.shop.website is listed by adblock, forced") == true)
    #expect(results["clean.blog"]?.listedBy == [] && results["clean.blog"]?.outcome == .reachable)
    #expect(results["gone.blog"]?.listedBy == nil, "only reachable names are looked up")
  }
}
