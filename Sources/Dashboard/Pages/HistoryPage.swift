import BlockerTest
import Foundation

/// The History page: a score-over-time chart, the runs as cards, a diff of two runs.
enum HistoryPage {
  static func render(_ runs: [RunView]) -> HTML {
    let html = HTML()
    html.raw("<h1>History</h1>")
    if runs.isEmpty {
      html.raw("<p>No runs yet. <a href=\"/test\">Run a test</a>.</p>")
      return html
    }
    html.append(chart(runs.reversed()))
    html.raw(
      "<form id=\"diff-form\" method=\"get\" action=\"/diff\" class=\"row wrap\"><div><label for=\"diff-from\">Compare</label>"
    )
    html.raw(options("from", id: "diff-from", runs: runs, selected: runs.count > 1 ? runs[1].id : runs[0].id))
    html.raw("</div><div><label for=\"diff-to\">with</label>")
    html.raw(options("to", id: "diff-to", runs: runs, selected: runs[0].id))
    html.raw("</div><button type=\"submit\">Compare</button></form><div class=\"cards\" id=\"runs\">")
    for run in runs {
      let score = Score(blocked: run.blocked, reachable: run.reachable, inconclusive: run.inconclusive)
      html.raw(
        "<article class=\"card run-card\" data-run=\"\(run.id)\"><h2><a href=\"/history/\(run.id)\">Run \(run.id)</a></h2>"
      )
      html.append(Gauge.svg(score, size: 96, warning: run.scoreWarning))
      html.raw("<p>").text(Layout.date(run.startedAt)).raw("<br>").text("\(run.probe) · \(run.target)").raw("</p>")
      html.raw("<p class=\"small\">").text(
        "\(run.blocked) blocked, \(run.reachable) reachable, \(run.inconclusive) inconclusive")
      html.raw("</p></article>")
    }
    html.raw("</div>")
    return html
  }

  static func options(_ name: String, id: String, runs: [RunView], selected: Int64) -> String {
    var out = "<select id=\"\(id)\" name=\"\(name)\">"
    for run in runs {
      out +=
        "<option value=\"\(run.id)\"\(run.id == selected ? " selected" : "")>Run \(run.id), \(HTML.escape(Layout.date(run.startedAt)))</option>"
    }
    return out + "</select>"
  }

  /// A run's date on the time axis: day and month, and the time (`27 Nov 14:05`).
  static func axisDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_GB")
    formatter.dateFormat = "d MMM HH:mm"
    return formatter.string(from: date)
  }

  /// Score over time (oldest left) as an SVG line; runs without a score are left out.
  static func chart(_ runs: [RunView]) -> HTML {
    let html = HTML()
    let scored = runs.compactMap { run in run.percent.map { (run, $0) } }
    let width = 600.0
    let height = 200.0
    let pad = 30.0
    html.raw(
      "<figure><svg id=\"score-chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Score over time: "
    )
    html.text(scored.map { "run \($0.0.id) \(Int($0.1.rounded()))%" }.joined(separator: ", "))
    html.raw("\" preserveAspectRatio=\"xMidYMid meet\">")
    for level in [0, 30, 60, 100] {
      let y = height - pad - (height - 2 * pad) * Double(level) / 100
      html.raw("<line class=\"grid\" x1=\"\(pad)\" x2=\"\(width - 10)\" y1=\"\(y)\" y2=\"\(y)\"/>")
      html.raw("<text class=\"axis\" x=\"\(pad - 4)\" y=\"\(y + 4)\" text-anchor=\"end\">\(level)</text>")
    }
    let step = scored.count > 1 ? (width - pad - 20) / Double(scored.count - 1) : 0
    let points = scored.enumerated().map { index, pair in
      (x: pad + 10 + step * Double(index), y: height - pad - (height - 2 * pad) * pair.1 / 100, run: pair.0)
    }
    if points.count > 1 {
      html.raw("<polyline class=\"line\" fill=\"none\" points=\"")
      html.raw(points.map { String(format: "%.1f,%.1f", $0.x, $0.y) }.joined(separator: " ")).raw("\"/>")
    }
    // The time axis: the date of the first and last runs and of up to four between, evenly chosen.
    let labelled = Set(
      points.count <= 6
        ? Array(points.indices) : (0..<6).map { $0 * (points.count - 1) / 5 })
    for index in labelled.sorted() {
      let point = points[index]
      let anchor = index == 0 ? "start" : index == points.count - 1 ? "end" : "middle"
      html.raw(
        "<text class=\"axis time\" x=\"\(String(format: "%.1f", point.x))\" y=\"\(Int(height - 8))\" text-anchor=\"\(anchor)\">"
      )
      html.text(Self.axisDate(point.run.startedAt)).raw("</text>")
    }
    for point in points {
      html.raw(
        "<a href=\"/history/\(point.run.id)\"><circle class=\"dot\" cx=\"\(String(format: "%.1f", point.x))\" cy=\"\(String(format: "%.1f", point.y))\" r=\"5\"><title>"
      )
      html.text("Run \(point.run.id): \(String(format: "%.1f", point.run.percent ?? 0))%").raw("</title></circle></a>")
    }
    html.raw("</svg><figcaption>Score over time (percent blocked of conclusive domains)</figcaption></figure>")
    return html
  }

  /// What changed between two runs.
  static func difference(_ difference: RunDifference) -> HTML {
    let html = HTML()
    html.raw("<h1>").text(
      "Run \(difference.from.map(String.init) ?? "?") → run \(difference.to.map(String.init) ?? "?")"
    ).raw("</h1>")
    html.raw("<section id=\"diff\">")
    for (title, changes, id) in [
      ("Newly blocked", difference.newlyBlocked, "newly-blocked"),
      ("Newly reachable", difference.newlyReachable, "newly-reachable"),
      ("Other changes", difference.other, "other-changes"),
    ] {
      html.raw("<h2>").text("\(title) (\(changes.count))").raw("</h2><ul id=\"\(id)\">")
      for change in changes {
        html.raw("<li>").text(
          "\(change.hostname): \(change.before?.rawValue ?? "–") → \(change.after?.rawValue ?? "–")"
        ).raw("</li>")
      }
      if changes.isEmpty { html.raw("<li class=\"muted\">None.</li>") }
      html.raw("</ul>")
    }
    html.raw("</section><p><a href=\"/history\">Back to the history</a></p>")
    return html
  }
}
