import BlockerTest
import Foundation
import Testing

@testable import Dashboard

@Suite("A report as the pages show it")
struct ReportViewTests {
  @Test("A result decided by the user's rule says so in the Why column; blocked controls warn beside the gauge")
  func ruleAndWarning() {
    var result = DomainResult(
      domain: TestDomain(hostname: "ad.doubleclick.net", category: "Ads", provider: "P"),
      verdict: Verdict(.reachable, "192.0.2.1"), milliseconds: 3, listedBy: ["easylist"])
    result.rule = "allowed by your rule doubleclick.net"
    let control = DomainResult(
      domain: TestDomain(hostname: "debian.org", category: "Control", provider: "Debian"),
      verdict: Verdict(.blocked, "NXDOMAIN"), milliseconds: 1)
    let report = TestReport(
      id: 8, startedAt: Date(), milliseconds: 5, probe: .dns, target: "127.0.0.1:53", timeoutMilliseconds: 2000,
      controls: [control], results: [result])
    let html = PageRenderer(csrf: "c").html("report", model: ReportView(report))
    #expect(html.contains("<span class=\"rule\">allowed by your rule doubleclick.net</span>"))
    #expect(html.contains("listed by easylist"))
    #expect(html.contains("⚠ 1 of 1 control domains blocked (debian.org): the blocker over-blocks"))
    #expect(html.contains("class=\"gauge rating-weak warned\""))
  }
}
