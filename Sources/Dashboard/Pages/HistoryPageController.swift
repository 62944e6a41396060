import BlockerTest
import Foundation
import Hummingbird
import Store

/// The History pages (`/history`, `history.mustache`: a score-over-time chart, the runs as cards, the
/// form that compares two; `/history/:id`, `run.mustache`: one run's report).
struct HistoryPageController: Sendable {
  /// The saved runs.
  let reports: RunReports
  /// The templates.
  let renderer: PageRenderer

  /// `GET /`, `GET /:id`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      let runs = try reports.store.testRuns(limit: 100).map(RunView.init)
      return renderer.page("history", title: "History", section: "/history", model: Page(runs))
    }
    routes.get(":id") { _, context in
      let report = try reports.report(context.parameters.require("id"))
      let id = report.id.map(String.init) ?? ""
      return renderer.page(
        "run", title: "Run \(id)", section: "/history", model: Run(id: id, report: ReportView(report)))
    }
    return routes
  }

  /// What `run.mustache` shows.
  struct Run {
    var id: String
    var report: ReportView
  }

  /// A run's date on the time axis: day and month, and the time (`27 Nov 14:05`).
  static func axisDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_GB")
    formatter.dateFormat = "d MMM HH:mm"
    return formatter.string(from: date)
  }

  /// What `history.mustache` shows.
  struct Page {
    /// A run as a card.
    struct Card {
      var id: Int64
      var gauge: GaugeView
      var date: String
      var how: String
      var counts: String
    }

    var hasRuns: Bool
    var runs: [Card]
    var chart: Chart?

    /// The page of the saved runs, newest first.
    init(_ runs: [RunView]) {
      hasRuns = !runs.isEmpty
      self.runs = runs.map { run in
        Card(
          id: run.id,
          gauge: GaugeView(
            Score(blocked: run.blocked, reachable: run.reachable, inconclusive: run.inconclusive), size: 96,
            warning: run.scoreWarning),
          date: Format.date(run.startedAt), how: "\(run.probe) · \(run.target)",
          counts: "\(run.blocked) blocked, \(run.reachable) reachable, \(run.inconclusive) inconclusive")
      }
      chart = runs.isEmpty ? nil : Chart(runs)
    }
  }

  /// Score over time (oldest left) as an SVG line, runs without a score left out; and the two runs the
  /// form compares (the two newest).
  struct Chart {
    struct Grid {
      var level: Int
      var y: String
      var labelY: String
    }
    struct Time {
      var x: String
      var anchor: String
      var date: String
    }
    struct Dot {
      var id: Int64
      var x: String
      var y: String
      var title: String
    }
    struct Option {
      var id: Int64
      var date: String
      var selected: Bool
    }

    var spoken: String
    var grid: [Grid]
    var line: String?
    var times: [Time]
    var dots: [Dot]
    var from: [Option]
    var to: [Option]

    /// The chart of runs given newest first.
    init(_ newestFirst: [RunView]) {
      let (height, pad) = (200.0, 30.0)
      let scored = newestFirst.reversed().compactMap { run in run.percent.map { (run, $0) } }
      spoken = scored.map { "run \($0.0.id) \(Int($0.1.rounded()))%" }.joined(separator: ", ")
      grid = [0, 30, 60, 100].map { level in
        let y = height - pad - (height - 2 * pad) * Double(level) / 100
        return Grid(level: level, y: "\(y)", labelY: "\(y + 4)")
      }
      let step = scored.count > 1 ? (600 - pad - 20) / Double(scored.count - 1) : 0
      let points = scored.enumerated().map { index, pair in
        (x: pad + 10 + step * Double(index), y: height - pad - (height - 2 * pad) * pair.1 / 100, run: pair.0)
      }
      line = points.count > 1 ? points.map { String(format: "%.1f,%.1f", $0.x, $0.y) }.joined(separator: " ") : nil
      // The time axis: the date of the first and last runs and of up to four between, evenly chosen.
      let labelled = Set(points.count <= 6 ? Array(points.indices) : (0..<6).map { $0 * (points.count - 1) / 5 })
      times = labelled.sorted().map { index in
        Time(
          x: Format.decimal(points[index].x),
          anchor: index == 0 ? "start" : index == points.count - 1 ? "end" : "middle",
          date: HistoryPageController.axisDate(points[index].run.startedAt))
      }
      dots = points.map { point in
        Dot(
          id: point.run.id, x: Format.decimal(point.x), y: Format.decimal(point.y),
          title: "Run \(point.run.id): \(Format.decimal(point.run.percent ?? 0))%")
      }
      let older = newestFirst.count > 1 ? newestFirst[1].id : newestFirst.first?.id
      from = newestFirst.map { Option(id: $0.id, date: Format.date($0.startedAt), selected: $0.id == older) }
      to = newestFirst.map {
        Option(id: $0.id, date: Format.date($0.startedAt), selected: $0.id == newestFirst.first?.id)
      }
    }
  }
}
