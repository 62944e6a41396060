import BlockerTest
import Blocklists
import Foundation
import UseCases

/// The overview: active profile, names blocked, each source's freshness, the last score, warnings.
enum OverviewPage {
  static func render(_ view: OverviewView, csrf: String) -> HTML {
    let html = HTML()
    html.raw("<h1>Overview</h1><section class=\"cards\">")
    html.raw("<article class=\"card\"><h2>Profile</h2><p class=\"big\" id=\"profile-name\">").text(view.profile)
    html.raw("</p><p>Names blocked: <strong id=\"names-blocked\">")
    html.text(view.names.map(\.grouped) ?? "0")
    html.raw("</strong></p><p class=\"muted\">")
    html.text(
      view.compiledAt.map { "Compiled \(Layout.age($0))" } ?? "Not compiled yet: run Update now on the Sources page.")
    html.raw("</p></article>")

    html.raw("<article class=\"card\" id=\"last-score\"><h2>Last test</h2>")
    if let run = view.lastTest {
      html.append(
        Gauge.svg(
          Score(blocked: run.blocked, reachable: run.reachable, inconclusive: run.inconclusive),
          warning: run.scoreWarning))
      html.raw("<p><a href=\"/history/\(run.id)\">Run \(run.id)</a>, ").text(Layout.age(run.startedAt))
      html.raw(" · ").text("\(run.probe) probe").raw("</p>")
    } else {
      html.raw("<p>No test yet. <a href=\"/test\">Test your blocking</a>.</p>")
    }
    html.raw("</article>")

    html.raw("<article class=\"card\"><h2>Activity</h2><p>Update: <span class=\"state\" id=\"overview-update\">")
    html.text(view.update.state.rawValue).raw("</span></p><p>Test: <span class=\"state\" id=\"overview-test\">")
    html.text(view.test.state.rawValue).raw("</span></p><p>Subscribe (Pi-hole adlist):</p><ul class=\"plain\">")
    for path in view.subscriptions {
      html.raw("<li><a href=\"\(HTML.escape(path))\">").text(path).raw("</a></li>")
    }
    html.raw("</ul></article></section>")

    html.raw("<section aria-labelledby=\"warnings-title\"><h2 id=\"warnings-title\">Warnings</h2><ul id=\"warnings\">")
    if view.warnings.isEmpty { html.raw("<li class=\"ok\">Nothing to report.</li>") }
    for warning in view.warnings { html.element("li", [("class", "warning")], text: warning) }
    html.raw("</ul></section>")

    html.raw("<section aria-labelledby=\"sources-title\"><h2 id=\"sources-title\">Sources</h2>")
    html.raw(
      "<div class=\"scroll\"><table id=\"sources-table\" class=\"stack\"><thead><tr><th scope=\"col\">Source</th>")
    html.raw(
      "<th scope=\"col\">Status</th><th scope=\"col\" class=\"num\">Names</th><th scope=\"col\">Updated</th></tr></thead><tbody>"
    )
    for source in view.sources {
      html.raw("<tr data-source=\"\(HTML.escape(source.key))\"\(source.enabled ? "" : " class=\"disabled\"")><td>")
      html.text(source.key).raw("<br><span class=\"muted small\">").text(source.name).raw("</span></td>")
      html.raw("<td><span class=\"status status-\(HTML.escape(source.status))\">").text(source.status).raw("</span>")
      if !source.enabled { html.raw(" <span class=\"muted\">(disabled)</span>") }
      html.raw("</td><td class=\"num\">").text(source.unique.map(\.grouped) ?? "–")
      html.raw("</td><td>").text(Layout.age(source.lastSuccess)).raw("</td></tr>")
    }
    if view.sources.isEmpty {
      html.raw("<tr><td colspan=\"4\">No sources yet: <a href=\"/sources\">add some</a>.</td></tr>")
    }
    html.raw("</tbody></table></div></section>")
    return html
  }
}
