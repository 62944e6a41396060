import BlockerTest
import Foundation

/// The score as a ring gauge (`gauge.mustache`, an SVG): the share of conclusive domains that were blocked.
struct GaugeView: Sendable {
  /// The ring's width and height in pixels.
  var size: Int
  /// `strong`, `moderate`, `weak` or `none`.
  var rating: String
  /// The percent for scripts and tests (`data-percent`), empty without a score.
  var percent: String
  /// What a screen reader says.
  var spoken: String
  /// The ring's filled length and circumference (`stroke-dasharray`).
  var dash: String
  /// "75%", or "–" without a score.
  var label: String
  /// The warning that goes with the score (blocked control domains).
  var gaugeWarning: String?

  /// The gauge for a score; with no conclusive result it shows "–".
  init(_ score: Score, size: Int = 140, warning: String? = nil) {
    let percent = score.percent
    let circumference = 2 * Double.pi * 52
    self.size = size
    rating = score.rating.rawValue
    self.percent = percent.map(Format.decimal) ?? ""
    label = percent.map { "\(Int($0.rounded()))%" } ?? "–"
    var spoken = percent.map { "Score \(Int($0.rounded())) percent, \(score.rating.rawValue)" } ?? "No score"
    if let warning { spoken += ". Warning: \(warning)" }
    self.spoken = spoken
    dash = "\(Format.decimal(circumference * (percent ?? 0) / 100)) \(Format.decimal(circumference))"
    gaugeWarning = warning
  }
}
