import BlockerTest
import Foundation
import Loading
import Testing

@testable import Dashboard

@Suite("Test page")
struct TestPageControllerTests {
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
    let page = TestPageController.Page(
      status: status, settings: Settings(probe: "dns", resolver: "10.0.0.1"), categories: ["Ads"], latest: report)
    let html = PageRenderer(csrf: "c").html("test", model: page)
    #expect(html.contains("<option value=\"dns\" selected>"))
    #expect(html.contains("value=\"10.0.0.1\""))
    #expect(html.contains("42 of 128 domains, 30 blocked"))
    #expect(html.contains("<progress id=\"test-progress\" max=\"128\" value=\"42\""))
    #expect(html.contains("<button id=\"test-start\" type=\"submit\" disabled>"))
    #expect(html.contains("<span id=\"score-percent\">50.0%</span>"))
    #expect(html.contains("data-category=\"Ads\"") && html.contains("<span class=\"blocked-count\">1</span>"))
    #expect(
      html.contains(
        "<tr data-verdict=\"reachable\"><td data-label=\"Domain\"><a href=\"/why?name=b.website\">b.website</a></td>"),
      "every name links to Why?")
    #expect(html.contains("href=\"/api/history/7/export?format=json\""))
    #expect(TestPageController.Status.text(TestStatus(state: .running)) == "Checking the control domains…")
  }

  @Test("/test/events streams the test's status, rendered, as it changes")
  func events() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        harness.dashboard.tests.relay.update(TestStatus(state: .running, total: 10))
        let text = try await client.text("/test/events", until: "</div>")
        #expect(text.contains("event: fragment\ndata: <div id=\"test-status\" data-state=\"running\">"))
        #expect(text.contains("max=\"10\" value=\"0\""))
      }
    }
  }
}
