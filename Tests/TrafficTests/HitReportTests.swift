import Foundation
import Testing

@testable import Traffic

@Suite("The report")
struct HitReportTests {
  @Test("Dead weight: the lists without a hit, never the deny rules; the report round-trips as JSON")
  func deadWeight() throws {
    var report = HitReport(profile: "p", server: "dnsmasq", sources: ["a.log"])
    report.lists = [
      .init(list: "a", size: 3, queries: 2, names: 1, onlyThis: 2, share: 1),
      .init(list: "b", size: 5, queries: 0, names: 0, onlyThis: 0, share: 0),
      .init(list: "deny rules", size: 1, queries: 0, names: 0, onlyThis: 0, share: 0),
    ]
    #expect(report.deadWeight.map(\.list) == ["b"])
    let decoded = try JSONDecoder().decode(HitReport.self, from: JSONEncoder().encode(report))
    #expect(decoded == report)
  }

  @Test("Safe to remove: hits, none only its own, no allow rule overriding it; dead weight and deny rules apart")
  func safeToRemove() {
    var report = HitReport(profile: "p", server: "dnsmasq", sources: [])
    func row(_ list: String, queries: Int, only: Int, allowed: Int = 0) -> HitReport.ListHits {
      var row = HitReport.ListHits(list: list, size: 5, queries: queries, names: 1, onlyThis: only, share: 0)
      row.allowedQueries = allowed
      return row
    }
    report.lists = [
      row("big", queries: 10, only: 4), row("shadowed", queries: 6, only: 0),
      row("overridden", queries: 3, only: 0, allowed: 2),
      row("unused", queries: 0, only: 0), row("deny rules", queries: 1, only: 0),
    ]
    #expect(report.safeToRemove.map(\.list) == ["shadowed"])
    #expect(report.deadWeight.map(\.list) == ["unused"])
  }
}
