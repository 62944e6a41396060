import Foundation
import Testing

@testable import BlockerTest
@testable import Dashboard

@Suite("Comparing two runs")
struct RunDiffPageControllerTests {
  @Test("Each group with its count and changes; an empty group says None")
  func render() {
    func run(_ id: Int64, _ outcome: Outcome) -> TestReport {
      TestReport(
        id: id, startedAt: Date(), milliseconds: 1, probe: .dns, target: "t", timeoutMilliseconds: 1, controls: [],
        results: [
          DomainResult(
            domain: TestDomain(hostname: "<b>.website", category: "Ads", provider: "P"), verdict: Verdict(outcome, "x"),
            milliseconds: 1)
        ])
    }
    let difference = RunDifference(from: run(1, .reachable), to: run(2, .blocked))
    let html = PageRenderer(csrf: "c").html("run-diff", model: RunDiffPageController.Page(difference))
    #expect(html.contains("<h1>Run 1 → run 2</h1>"))
    #expect(html.contains("<h2>Newly blocked (1)</h2>"))
    #expect(html.contains("<li>&lt;b&gt;.website: reachable → blocked</li>"))
    #expect(html.components(separatedBy: "<li class=\"muted\">None.</li>").count == 3, "two empty groups")
  }
}
