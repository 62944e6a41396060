import Blocklists
import Foundation
import Store
import Testing
import UseCases

@Suite("A source's summary, the one view of the CLI and the dashboard")
struct SourceSummaryTests {
  @Test("It shows the forced or detected format, the counts, the membership and the findings by reason")
  func fields() throws {
    var source = Source(id: 1, key: "k", name: "K", location: "http://x/k", format: nil)
    source.detectedFormat = .adblock
    source.unique = 12
    source.rejected = 2
    var findings = Findings()
    findings.rejected[.malformedLine] = 1
    findings.samples[.malformedLine] = [Findings.Sample(line: 3, text: "junk")]
    source.findings = findings
    let summary = SourceSummary(ProfileSource(source: source, enabled: false))
    #expect(summary.format == "adblock" && summary.unique == 12 && !summary.enabled && summary.status == "new")
    #expect(summary.rejectedByReason == [RejectReason.malformedLine.rawValue: 1])
    #expect(summary.samples?[RejectReason.malformedLine.rawValue]?.first?.line == 3)
    var forced = source
    forced.format = .hosts
    #expect(SourceSummary(ProfileSource(source: forced, enabled: true)).format == "hosts")
    let json = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
    #expect(json.contains("\"unique\":12") && json.contains("\"key\":\"k\""))
  }
}
