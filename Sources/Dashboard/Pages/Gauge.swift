import BlockerTest
import Foundation

/// The score as a ring gauge (SVG): the share of conclusive domains that were blocked.
enum Gauge {
  /// The gauge for a score; with no conclusive result it shows "–".
  static func svg(_ score: Score, size: Int = 140, warning: String? = nil) -> HTML {
    let html = HTML()
    let percent = score.percent
    let radius = 52.0
    let circumference = 2 * Double.pi * radius
    let filled = circumference * (percent ?? 0) / 100
    let label = percent.map { "\(Int($0.rounded()))%" } ?? "–"
    var spoken = percent.map { "Score \(Int($0.rounded())) percent, \(score.rating.rawValue)" } ?? "No score"
    if let warning { spoken += ". Warning: \(warning)" }
    html.raw(
      "<svg class=\"gauge rating-\(score.rating.rawValue)\(warning == nil ? "" : " warned")\" data-percent=\"\(percent.map { String(format: "%.1f", $0) } ?? "")\" width=\"\(size)\" height=\"\(size)\" viewBox=\"0 0 120 120\" role=\"img\" aria-label=\"\(HTML.escape(spoken))\">"
    )
    if let warning { html.raw("<title>").text("Warning: \(warning)").raw("</title>") }
    html.raw("<circle class=\"track\" cx=\"60\" cy=\"60\" r=\"52\" fill=\"none\" stroke-width=\"12\"/>")
    html.raw(
      "<circle class=\"value\" cx=\"60\" cy=\"60\" r=\"52\" fill=\"none\" stroke-width=\"12\" stroke-linecap=\"round\" stroke-dasharray=\"\(String(format: "%.1f", filled)) \(String(format: "%.1f", circumference))\" transform=\"rotate(-90 60 60)\"/>"
    )
    html.raw("<text x=\"60\" y=\"66\" text-anchor=\"middle\" class=\"gauge-label\">\(label)</text>")
    html.raw(
      "<text x=\"60\" y=\"84\" text-anchor=\"middle\" class=\"gauge-rating\">\(warning == nil ? "" : "⚠ ")\(score.rating.rawValue)</text></svg>"
    )
    if let warning { html.element("p", [("class", "warning gauge-warning")], text: "⚠ \(warning)") }
    return html
  }
}
