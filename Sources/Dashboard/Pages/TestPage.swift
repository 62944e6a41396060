import BlockerTest
import Foundation

/// The Test page: start a test, watch it, then the gauge, category cards and the domain table.
enum TestPage {
  struct Model {
    var status: TestStatus
    var settings: Settings
    var categories: [String]
    var latest: TestReport?
  }

  static func render(_ model: Model, csrf: String) -> HTML {
    let html = HTML()
    let csrfField = Layout.csrfField(csrf)
    let running = model.status.state == .running
    html.raw("<h1>Test your blocking</h1>")
    html.raw("<section class=\"card\" id=\"test\" data-events=\"/api/test/events\" aria-labelledby=\"test-title\">")
    html.raw("<h2 id=\"test-title\">New test</h2>")
    html.raw(
      "<form id=\"test-form\" method=\"post\" action=\"/api/test\" data-api class=\"stack\">\(csrfField)<div class=\"row wrap\">"
    )
    html.raw("<div><label for=\"probe\">Probe</label><select id=\"probe\" name=\"probe\">")
    for (value, label) in [("system", "System resolver"), ("dns", "A DNS server"), ("https", "HTTPS request")] {
      html.raw("<option value=\"\(value)\"\(model.settings.probe == value ? " selected" : "")>\(label)</option>")
    }
    html.raw("</select></div><div><label for=\"resolver\">DNS server (for the DNS probe)</label>")
    html.raw("<input id=\"resolver\" name=\"resolver\" placeholder=\"192.168.1.2 or 127.0.0.1:5353\" value=\"")
    html.text(model.settings.resolver).raw("\"></div>")
    html.raw(
      "<div><label for=\"timeout\">Timeout (s)</label><input id=\"timeout\" name=\"timeout\" type=\"number\" min=\"0.1\" max=\"60\" step=\"0.1\" value=\""
    )
    html.text(String(model.settings.timeout)).raw("\"></div></div>")
    html.raw("<fieldset><legend>Categories (none ticked: all)</legend><div class=\"row wrap\">")
    for (index, category) in model.categories.enumerated() {
      html.raw(
        "<label class=\"check\" for=\"category-\(index)\"><input type=\"checkbox\" id=\"category-\(index)\" name=\"category\" value=\""
      )
      html.text(category).raw("\"> ").text(category).raw("</label>")
    }
    html.raw(
      "</div></fieldset><div class=\"row\"><button id=\"test-start\" type=\"submit\"\(running ? " disabled" : "")>Start test</button>"
        + "<button id=\"test-save\" type=\"submit\" class=\"secondary\" formaction=\"/api/settings\" data-success=\"Saved: new tests start with this probe, server and timeout.\">Save as defaults</button></div></form>"
    )
    html.raw("<form method=\"post\" action=\"/api/test/cancel\" data-api>\(csrfField)")
    html.raw(
      "<button id=\"test-cancel\" type=\"submit\" class=\"secondary\"\(running ? "" : " disabled")>Cancel</button></form>"
    )
    html.raw("<p>State: <strong id=\"test-state\" class=\"state\">").text(model.status.state.rawValue).raw(
      "</strong></p>")
    html.raw(
      "<progress id=\"test-progress\" max=\"\(max(1, model.status.total))\" value=\"\(model.status.done)\" aria-label=\"Domains probed\"></progress>"
    )
    html.raw("<p id=\"test-message\" aria-live=\"polite\">").text(progressText(model.status)).raw("</p></section>")

    html.raw("<section id=\"test-result\" aria-labelledby=\"result-title\">")
    if let report = model.latest {
      html.raw("<h2 id=\"result-title\">Latest result</h2>")
      html.append(ReportView.render(report))
    } else {
      html.raw("<h2 id=\"result-title\">No result yet</h2><p>Start a test above.</p>")
    }
    html.raw("</section>")
    return html
  }

  /// "42 of 128 domains, 30 blocked", or the message of an ended run.
  static func progressText(_ status: TestStatus) -> String {
    if status.state == .running {
      return status.total == 0
        ? "Checking the control domains…" : "\(status.done) of \(status.total) domains, \(status.blocked) blocked"
    }
    return status.message ?? ""
  }
}

/// One report: the gauge, category cards, the domain table with a filter, export links.
enum ReportView {
  static func render(_ report: TestReport) -> HTML {
    let html = HTML()
    let score = report.score
    html.raw("<div class=\"result-head\">")
    html.append(Gauge.svg(score, size: 160, warning: report.scoreWarning))
    html.raw("<div><p class=\"big\"><span id=\"score-percent\">")
    html.text(score.percent.map { String(format: "%.1f%%", $0) } ?? "no score").raw("</span> blocked</p><p>")
    html.text(
      "\(score.blocked) blocked, \(score.reachable) reachable, "
        + (score.leaking > 0 ? "\(score.leaking) leaking, " : "") + "\(score.inconclusive) inconclusive")
    html.raw("</p><p class=\"muted\">").text(
      "Run \(report.id.map(String.init) ?? "-") · \(report.probe.rawValue) probe · \(report.target) · \(Layout.date(report.startedAt))"
    )
    html.raw("</p>")
    if let id = report.id {
      html.raw(
        "<p class=\"row\"><a class=\"button secondary\" id=\"export-text\" href=\"/api/history/\(id)/export?format=text\" download>Export text</a>"
      )
      html.raw(
        "<a class=\"button secondary\" id=\"export-json\" href=\"/api/history/\(id)/export?format=json\" download>Export JSON</a></p>"
      )
    }
    html.raw("</div></div>")
    for warning in report.warnings { html.element("p", [("class", "warning")], text: warning) }

    html.raw("<h3>By category</h3><div class=\"cards\">")
    for group in report.categories {
      html.raw("<article class=\"card category-card\" data-category=\"\(HTML.escape(group.name))\"><h4>").text(
        group.name)
      html.raw("</h4><p class=\"big\">").text(group.score.percent.map { "\(Int($0.rounded()))%" } ?? "–").raw("</p><p>")
      html.raw("<span class=\"blocked-count\">\(group.score.blocked)</span> blocked · ")
      html.raw("<span class=\"reachable-count\">\(group.score.reachable)</span> reachable")
      if group.score.leaking > 0 { html.raw(" · \(group.score.leaking) leaking") }
      if group.score.inconclusive > 0 { html.raw(" · \(group.score.inconclusive) inconclusive") }
      html.raw("</p></article>")
    }
    html.raw("</div><h3>Domains</h3><div class=\"row wrap\"><div><label for=\"domain-filter\">Filter</label>")
    html.raw(
      "<input id=\"domain-filter\" type=\"search\" data-filter=\"#domain-table tbody tr\" placeholder=\"name, category, provider\"></div>"
    )
    html.raw(
      "<div><label for=\"verdict-filter\">Verdict</label><select id=\"verdict-filter\" data-verdict-filter=\"#domain-table tbody tr\">"
    )
    html.raw(
      "<option value=\"\">all</option><option>blocked</option><option>reachable</option><option>leaking</option><option>inconclusive</option></select></div></div>"
    )
    html.raw(
      "<div class=\"scroll\"><table id=\"domain-table\" class=\"stack\"><thead><tr><th scope=\"col\">Domain</th><th scope=\"col\">Category</th>"
    )
    html.raw(
      "<th scope=\"col\">Provider</th><th scope=\"col\">Verdict</th><th scope=\"col\">Why</th><th scope=\"col\" class=\"num\">ms</th></tr></thead><tbody>"
    )
    for result in report.results {
      let why = result.hostname.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? result.hostname
      html.raw("<tr data-verdict=\"\(result.outcome.rawValue)\"><td><a href=\"/why?name=\(HTML.escape(why))\">")
      html.text(result.hostname).raw("</a></td><td>").text(
        result.category)
      html.raw("</td><td>").text(result.provider).raw(
        "</td><td><span class=\"verdict verdict-\(result.outcome.rawValue)\">")
      html.text(result.outcome.rawValue).raw("</span></td><td class=\"small\">").text(result.reason)
      if let chain = result.chain, chain.count > 1 {
        html.raw("<br><span class=\"muted\">").text("CNAME chain \(chain.joined(separator: " → "))").raw("</span>")
      }
      if let rule = result.rule {
        html.raw("<br><span class=\"rule\">").text(rule).raw("</span>")
      }
      if let listed = result.listedBy, !listed.isEmpty {
        html.raw("<br><span class=\"muted\">").text("listed by \(listed.joined(separator: ", "))").raw("</span>")
      }
      html.raw("</td><td class=\"num\">\(result.milliseconds)</td></tr>")
    }
    html.raw("</tbody></table></div>")
    return html
  }
}
