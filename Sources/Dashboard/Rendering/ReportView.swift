import BlockerTest
import Foundation

/// One blocker-test report as `report.mustache` shows it: the gauge, category cards, the domain table
/// with a filter, export links (the Test page's latest result, a run's page).
struct ReportView {
  /// A category's score.
  struct Group {
    var name: String
    var groupPercent: String
    var blocked: Int
    var reachable: Int
    var leaking: Int?
    var inconclusive: Int?
  }

  /// A probed domain's row; each name links to Why?.
  struct Result {
    var outcome: String
    var link: String
    var hostname: String
    var category: String
    var provider: String
    var reason: String
    var chain: String?
    var rule: String?
    var listedBy: String?
    var milliseconds: Int
  }

  var gauge: GaugeView
  var percent: String
  var counts: String
  var about: String
  var exportID: String?
  var reportWarnings: [String]
  var groups: [Group]
  var results: [Result]

  /// The view of a report.
  init(_ report: TestReport) {
    let score = report.score
    gauge = GaugeView(score, size: 160, warning: report.scoreWarning)
    percent = score.percent.map { String(format: "%.1f%%", $0) } ?? "no score"
    counts =
      "\(score.blocked) blocked, \(score.reachable) reachable, "
      + (score.leaking > 0 ? "\(score.leaking) leaking, " : "") + "\(score.inconclusive) inconclusive"
    about =
      "Run \(report.id.map(String.init) ?? "-") · \(report.probe.rawValue) probe · \(report.target) · \(Format.date(report.startedAt))"
    exportID = report.id.map(String.init)
    reportWarnings = report.warnings
    groups = report.categories.map { group in
      Group(
        name: group.name, groupPercent: group.score.percent.map { "\(Int($0.rounded()))%" } ?? "–",
        blocked: group.score.blocked, reachable: group.score.reachable,
        leaking: group.score.leaking > 0 ? group.score.leaking : nil,
        inconclusive: group.score.inconclusive > 0 ? group.score.inconclusive : nil)
    }
    results = report.results.map { result in
      Result(
        outcome: result.outcome.rawValue,
        link: result.hostname.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? result.hostname,
        hostname: result.hostname, category: result.category, provider: result.provider, reason: result.reason,
        chain: result.chain.flatMap { $0.count > 1 ? $0.joined(separator: " → ") : nil }, rule: result.rule,
        listedBy: result.listedBy.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") },
        milliseconds: result.milliseconds)
    }
  }
}
