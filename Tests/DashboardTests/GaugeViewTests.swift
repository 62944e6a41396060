import BlockerTest
import Testing

@testable import Dashboard

@Suite("Gauge")
struct GaugeViewTests {
  static func svg(_ gauge: GaugeView) -> String { PageRenderer(csrf: "").html("gauge", model: gauge) }

  @Test("The ring's filled length is the score's share of the circumference; the label and rating are spoken")
  func gauge() {
    let svg = Self.svg(GaugeView(Score(blocked: 3, reachable: 1, inconclusive: 2)))
    #expect(svg.contains("data-percent=\"75.0\""))
    #expect(svg.contains("stroke-dasharray=\"245.0 326.7\""))
    #expect(svg.contains("aria-label=\"Score 75 percent, strong\""))
    #expect(svg.contains(">75%<"))
    let none = Self.svg(GaugeView(Score(blocked: 0, reachable: 0, inconclusive: 4)))
    #expect(none.contains("data-percent=\"\"") && none.contains(">–<") && none.contains("aria-label=\"No score\""))
  }

  @Test("A warning (blocked control domains) goes with the gauge: its label, its title and a line under it")
  func warning() {
    let svg = Self.svg(
      GaugeView(Score(blocked: 3, reachable: 1, inconclusive: 0), warning: "1 of 3 control domains blocked"))
    #expect(svg.contains("class=\"gauge rating-strong warned\""))
    #expect(svg.contains("aria-label=\"Score 75 percent, strong. Warning: 1 of 3 control domains blocked\""))
    #expect(svg.contains("<title>Warning: 1 of 3 control domains blocked</title>"))
    #expect(svg.contains("<p class=\"warning gauge-warning\">⚠ 1 of 3 control domains blocked</p>"))
    #expect(!Self.svg(GaugeView(Score(blocked: 3, reachable: 1, inconclusive: 0))).contains("warn"))
  }
}
