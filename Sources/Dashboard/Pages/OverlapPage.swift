import Blocklists
import Foundation
import UseCases

/// What each list adds and how much the lists overlap: unique contributions as bars, the matrix as a heatmap.
enum OverlapPage {
  static func render(_ report: Overlap.Report) -> HTML {
    let html = HTML()
    html.raw("<h1>What each list adds</h1>")
    guard !report.sources.isEmpty else {
      html.raw("<p>No list of this profile has a saved copy yet: press Update now on the Sources page.</p>")
      return html
    }
    html.raw("<p>").text(
      "Profile \(report.profile): \(report.sources.count) enabled lists, \(report.total.grouped) distinct names (before rules)."
    ).raw("</p>")
    html.raw("<section aria-labelledby=\"unique-title\"><h2 id=\"unique-title\">Unique names</h2>")
    html.raw("<div class=\"scroll\"><table id=\"overlap-sources\" class=\"stack\"><thead><tr><th scope=\"col\">#</th>")
    html.raw(
      "<th scope=\"col\">List</th><th scope=\"col\" class=\"num\">Names</th><th scope=\"col\" class=\"num\">Unique</th>"
    )
    html.raw(
      "<th scope=\"col\">Unique share</th><th scope=\"col\" class=\"num\">Share of profile</th></tr></thead><tbody>")
    for (index, source) in report.sources.enumerated() {
      html.raw("<tr data-source=\"\(HTML.escape(source.key))\"><td>\(index + 1)</td><td>").text(source.key)
      if let note = source.note { html.raw("<br><span class=\"small message\">").text(note).raw("</span>") }
      html.raw("</td><td class=\"num\">").text(source.names.grouped).raw("</td><td class=\"num\">")
      html.text(source.unique.grouped).raw("</td><td><meter min=\"0\" max=\"100\" value=\"")
      html.raw(String(format: "%.1f", source.uniquePercent)).raw(
        "\" aria-label=\"unique share of \(HTML.escape(source.key))\">")
      html.raw("</meter> ").text(String(format: "%.1f %%", source.uniquePercent)).raw("</td><td class=\"num\">")
      html.text(String(format: "%.1f %%", source.sharePercent)).raw("</td></tr>")
    }
    html.raw("</tbody></table></div></section>")

    guard report.sources.count > 1 else { return html }
    html.raw("<section aria-labelledby=\"matrix-title\"><h2 id=\"matrix-title\">Overlap</h2>")
    html.raw("<p class=\"muted small\">Each cell: the share of the row's names that the column's list has too.</p>")
    html.raw("<div class=\"scroll\"><table id=\"overlap-matrix\" class=\"heatmap\"><thead><tr><th scope=\"col\"></th>")
    for index in report.sources.indices {
      html.raw("<th scope=\"col\" title=\"\(HTML.escape(report.sources[index].key))\">\(index + 1)</th>")
    }
    html.raw("</tr></thead><tbody>")
    for row in report.sources.indices {
      html.raw("<tr><th scope=\"row\" title=\"\(HTML.escape(report.sources[row].key))\">\(row + 1)</th>")
      for column in report.sources.indices {
        if row == column {
          html.raw("<td class=\"heat-self\">–</td>")
          continue
        }
        let percent = report.percent(of: row, in: column)
        let level = Int((percent / 10).rounded())
        html.raw("<td class=\"heat-\(level)\" title=\"")
        html.raw(HTML.escape("\(report.sources[row].key) in \(report.sources[column].key)"))
        html.raw("\">\(Int(percent.rounded()))</td>")
      }
      html.raw("</tr>")
    }
    html.raw("</tbody></table></div></section>")
    return html
  }
}
