import Foundation
import Store
import Testing

@testable import Dashboard

@Suite("History page")
struct HistoryPageControllerTests {
  @Test("The chart scales scores to its height and skips runs without a score")
  func chart() {
    let runs = [(1, 0, 4), (2, 4, 0), (3, 0, 0)].map { id, blocked, reachable in
      RunView(
        TestRunRecord(
          id: Int64(id), startedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(id)), probe: "dns", target: "t",
          milliseconds: 1, blocked: blocked, reachable: reachable, inconclusive: 1, report: Data()))
    }
    let renderer = PageRenderer(csrf: "c")
    let page = renderer.html("history", model: HistoryPageController.Page(runs.reversed()))
    #expect(page.components(separatedBy: "class=\"dot\"").count == 3)
    #expect(page.contains("points=\"40.0,170.0 590.0,30.0\""))
    #expect(page.contains("aria-label=\"Score over time: run 1 0%, run 2 100%\""))
    // Regression: the chart had no time axis. Each run's date is under its point (first left, last right).
    let first = HistoryPageController.axisDate(Date(timeIntervalSince1970: 1_800_000_001))
    #expect(page.contains("<text class=\"axis time\" x=\"40.0\" y=\"192\" text-anchor=\"start\">\(first)</text>"))
    #expect(page.components(separatedBy: "class=\"axis time\"").count == 3)
    #expect(page.contains("<line class=\"grid\" x1=\"30.0\" x2=\"590.0\" y1=\"170.0\" y2=\"170.0\"/>"))
    #expect(page.contains("<option value=\"2\" selected>"))
    #expect(page.components(separatedBy: "class=\"card run-card\"").count == 4)
    #expect(renderer.html("history", model: HistoryPageController.Page([])).contains("No runs yet"))
  }
}
