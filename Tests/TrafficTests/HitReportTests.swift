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
}
