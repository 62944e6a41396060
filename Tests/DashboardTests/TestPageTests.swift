import BlockerTest
import Foundation
import Testing

@testable import Dashboard

@Suite("Test page")
struct TestPageTests {
  @Test("The form keeps the saved settings; progress reads as counts; a result shows gauge, cards and rows")
  func render() {
    var status = TestStatus(state: .running, total: 128)
    status.done = 42
    status.blocked = 30
    let results = ["a.website", "b.website"].enumerated().map { index, name in
      DomainResult(
        domain: TestDomain(hostname: name, category: "Ads", provider: "P"),
        verdict: Verdict(index == 0 ? .blocked : .reachable, "why"), milliseconds: 3)
    }
    let report = TestReport(
      id: 7, startedAt: Date(), milliseconds: 5, probe: .dns, target: "127.0.0.1:53", timeoutMilliseconds: 2000,
      controls: [], results: results)
    let model = TestPage.Model(
      status: status, settings: Settings(probe: "dns", resolver: "10.0.0.1"), categories: ["Ads"], latest: report)
    let html = TestPage.render(model, csrf: "c").output
    #expect(html.contains("<option value=\"dns\" selected>"))
    #expect(html.contains("value=\"10.0.0.1\""))
    #expect(html.contains("42 of 128 domains, 30 blocked"))
    #expect(html.contains("<progress id=\"test-progress\" max=\"128\" value=\"42\""))
    #expect(html.contains("<span id=\"score-percent\">50.0%</span>"))
    #expect(html.contains("data-category=\"Ads\"") && html.contains("<span class=\"blocked-count\">1</span>"))
    #expect(
      html.contains("<tr data-verdict=\"reachable\"><td><a href=\"/why?name=b.website\">b.website</a></td>"),
      "every name links to Why?")
    #expect(html.contains("href=\"/api/history/7/export?format=json\""))
    #expect(TestPage.progressText(TestStatus(state: .running)) == "Checking the control domains…")
  }

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
    let html = ReportView.render(report).output
    #expect(html.contains("<span class=\"rule\">allowed by your rule doubleclick.net</span>"))
    #expect(html.contains("listed by easylist"))
    #expect(html.contains("⚠ 1 of 1 control domains blocked (debian.org): the blocker over-blocks"))
    #expect(html.contains("class=\"gauge rating-weak warned\""))
  }
}
