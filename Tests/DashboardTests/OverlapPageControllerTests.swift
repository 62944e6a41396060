import Blocklists
import Foundation
import Testing

@testable import Dashboard
@testable import UseCases

@Suite("The overlap page")
struct OverlapPageControllerTests {
  @Test("A bar per list, the heatmap's cells by share, notes shown; no copy yet says what to do")
  func render() async throws {
    let list = try await Compiler().compile([
      .text("a.website\nb.website\nc.website\nd.website\n", name: "one"), .text("c.website\nd.website\n", name: "two"),
    ])
    let overlap = Overlap(list)
    let report = Overlap.Report(
      profile: "p", total: 4,
      sources: [
        .init(key: "one", name: "one", names: 4, unique: 2, uniquePercent: 50, sharePercent: 100, note: nil),
        .init(key: "two", name: "two", names: 2, unique: 0, uniquePercent: 0, sharePercent: 50, note: "adds <1 %"),
      ], pairs: [], missing: [], overlap: overlap)
    let renderer = PageRenderer(csrf: "c")
    let html = renderer.html("overlap", model: OverlapPageController.Page(report))
    #expect(html.components(separatedBy: "<meter").count - 1 == 2)
    #expect(html.contains("<td class=\"heat-5\" title=\"one in two\">50</td>"))
    #expect(html.contains("<td class=\"heat-10\" title=\"two in one\">100</td>"))
    #expect(html.contains("<td class=\"heat-self\">–</td>"))
    #expect(html.contains("adds &lt;1 %"))
    let empty = Overlap.Report(profile: "p", total: 0, sources: [], pairs: [], missing: [], overlap: overlap)
    let none = renderer.html("overlap", model: OverlapPageController.Page(empty))
    #expect(none.contains("press Update now") && !none.contains("<table"))
  }
}
