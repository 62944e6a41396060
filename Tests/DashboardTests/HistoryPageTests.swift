import Foundation
import Store
import Testing

@testable import Dashboard

@Suite("History page")
struct HistoryPageTests {
  @Test("The chart scales scores to its height and skips runs without a score")
  func chart() {
    let runs = [(1, 0, 4), (2, 4, 0), (3, 0, 0)].map { id, blocked, reachable in
      RunView(
        TestRunRecord(
          id: Int64(id), startedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(id)), probe: "dns", target: "t",
          milliseconds: 1, blocked: blocked, reachable: reachable, inconclusive: 1, report: Data()))
    }
    let chart = HistoryPage.chart(runs).output
    #expect(chart.components(separatedBy: "class=\"dot\"").count == 3)
    #expect(chart.contains("points=\"40.0,170.0 590.0,30.0\""))
    #expect(chart.contains("aria-label=\"Score over time: run 1 0%, run 2 100%\""))
    // Regression: the chart had no time axis. Each run's date is under its point (first left, last right).
    let first = HistoryPage.axisDate(Date(timeIntervalSince1970: 1_800_000_001))
    #expect(chart.contains("<text class=\"axis time\" x=\"40.0\" y=\"192\" text-anchor=\"start\">\(first)</text>"))
    #expect(chart.components(separatedBy: "class=\"axis time\"").count == 3)
    let page = HistoryPage.render(runs.reversed()).output
    #expect(page.contains("<option value=\"2\" selected>"))
    #expect(HistoryPage.render([]).output.contains("No runs yet"))
  }
}
