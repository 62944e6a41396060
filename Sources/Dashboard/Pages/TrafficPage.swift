import Blocklists
import Foundation
import Traffic

/// Which lists block the network's queries: hits per list as bars, dead weight, the most asked blocked
/// names, what the server answered against the profile, and the live feed with an Allow button per name.
enum TrafficPage {
  static func render(report: HitReport?, logs: [LogSource], since: String, error: String?, csrf: String) -> HTML {
    let html = HTML()
    html.raw("<h1>Traffic</h1>")
    guard !logs.isEmpty else {
      html.raw("<p>No query log to read. Start the dashboard with the DNS server's log, e.g. ")
      html.raw("<code>sanehosts serve --log dnsmasq:/var/log/dnsmasq.log</code> (dnsmasq needs ")
      html.raw("<code>log-queries</code> and <code>log-facility</code>; see <code>sanehosts hits --help</code>).</p>")
      return html
    }
    html.raw("<form method=\"get\" action=\"/traffic\" class=\"row\"><div><label for=\"since\">Since</label>")
    html.raw("<select id=\"since\" name=\"since\" data-submit>")
    for (value, label) in [("1h", "the last hour"), ("24h", "the last 24 hours"), ("7d", "the last 7 days")] {
      html.raw("<option value=\"\(value)\"\(value == since ? " selected" : "")>").text(label).raw("</option>")
    }
    html.raw("</select></div></form>")
    if let error { html.raw("<p class=\"message error\" role=\"alert\">").text(error).raw("</p>") }
    if let report { summary(report, into: html, csrf: csrf) }
    feed(into: html, csrf: csrf)
    return html
  }

  private static func summary(_ report: HitReport, into html: HTML, csrf: String) {
    html.raw("<p>").text(
      "\(report.queries.counted("query", "queries")) for \(report.distinctNames.counted("name")); profile \(report.profile) blocks "
        + "\(report.blocked.grouped) of them (as \(report.server) applies it).")
    html.raw("</p><section aria-labelledby=\"hits-title\"><h2 id=\"hits-title\">Hits per list</h2>")
    html.raw("<div class=\"scroll\"><table id=\"traffic-lists\" class=\"stack\"><thead><tr><th scope=\"col\">List</th>")
    html.raw("<th scope=\"col\" class=\"num\">Names</th><th scope=\"col\" class=\"num\">Blocked</th>")
    html.raw("<th scope=\"col\" class=\"num\">Only this</th><th scope=\"col\">Share</th></tr></thead><tbody>")
    for list in report.lists.sorted(by: { ($0.queries, $1.list) > ($1.queries, $0.list) }) {
      let percent = list.share * 100
      html.raw("<tr data-list=\"\(HTML.escape(list.list))\"><td>").text(list.list).raw("</td><td class=\"num\">")
      html.text(list.size.grouped).raw("</td><td class=\"num\">").text(list.queries.grouped)
      html.raw("</td><td class=\"num\">").text(list.onlyThis.grouped).raw(
        "</td><td><meter min=\"0\" max=\"100\" value=\"")
      html.raw(String(format: "%.1f", percent)).raw("\" aria-label=\"share of \(HTML.escape(list.list))\"></meter> ")
      html.text(String(format: "%.1f %%", percent)).raw("</td></tr>")
    }
    html.raw("</tbody></table></div>")
    if !report.deadWeight.isEmpty {
      html.raw("<p id=\"dead-weight\">Dead weight (no hit in this window): ")
      html.text(report.deadWeight.map { "\($0.list) (\($0.size.counted("name")))" }.joined(separator: ", ")).raw("</p>")
    }
    html.raw("</section>")
    // A name the profile lets through already (an allow rule not applied yet) gets no Allow button.
    let pending = Set(report.notApplied.map(\.name))
    names("Most asked blocked names", id: "top-names", report.top, pending: pending, into: html, csrf: csrf)
    if let answered = report.answeredButBlocked, answered > 0 {
      names(
        "Answered although the profile blocks them (\(answered.grouped) \(answered == 1 ? "query" : "queries")): is the server running what was applied?",
        id: "answered-names", report.answeredNames, pending: pending, into: html, csrf: csrf)
    } else if report.answeredButBlocked == nil, report.blocked > 0 {
      html.raw("<p class=\"muted\" id=\"blind\">").text(
        "The logs cannot tell which queries the server blocked: \(report.blindReason ?? "they hold no block line").")
      html.raw("</p>")
    }
    if !report.notApplied.isEmpty {
      html.raw("<p class=\"message\" id=\"not-applied\">").text(
        "Allowed in the profile, not applied yet: \(report.notApplied.map(\.name).joined(separator: ", ")). Apply the profile (Apply page) to let them through."
      )
      html.raw("</p>")
    }
  }

  private static func names(
    _ title: String, id: String, _ names: [HitReport.NameHits], pending: Set<String>, into html: HTML, csrf: String
  ) {
    guard !names.isEmpty else { return }
    html.raw("<section aria-labelledby=\"\(id)-title\"><h2 id=\"\(id)-title\">").text(title).raw("</h2>")
    html.raw("<ul id=\"\(id)\" class=\"names\">")
    for name in names {
      html.raw("<li><code>").text(name.name).raw("</code> <span class=\"muted\">")
      html.text("\(name.queries.grouped) × · \(name.lists.joined(separator: ", "))").raw("</span> ")
      if pending.contains(name.name) {
        html.raw("<span class=\"muted\">allowed, not applied yet</span>")
      } else {
        allowForm(name.name, into: html, csrf: csrf)
      }
      html.raw("</li>")
    }
    html.raw("</ul></section>")
  }

  /// A button that adds an exact allow rule for `name` (the same rules API and CSRF check as the Sources page).
  static func allowForm(_ name: String, into html: HTML, csrf: String) {
    html.raw("<form method=\"post\" action=\"/api/rules\" data-api class=\"inline\">\(Layout.csrfField(csrf))")
    html.raw("<input type=\"hidden\" name=\"kind\" value=\"allow\">")
    // Without JavaScript the form's answer brings the user back here, not to the Sources page.
    html.raw("<input type=\"hidden\" name=\"back\" value=\"/traffic\">")
    html.raw("<input type=\"hidden\" name=\"pattern\" value=\"=\(HTML.escape(name))\">")
    html.raw("<button type=\"submit\" class=\"small secondary\" data-success=\"Allowed \(HTML.escape(name)).\">")
    html.raw("Allow</button></form>")
  }

  private static func feed(into html: HTML, csrf: String) {
    html.raw("<section aria-labelledby=\"feed-title\" data-feed=\"/api/traffic/events\">")
    html.raw("<h2 id=\"feed-title\">Live: what was just blocked</h2>")
    html.raw("<p class=\"muted small\">Reproduce the broken page, then allow what should not have been blocked. ")
    html.raw("Allowing takes effect at the next apply.</p>")
    html.raw("<ul id=\"feed\" class=\"names\" aria-live=\"polite\"><li class=\"muted\" id=\"feed-empty\">")
    html.raw("Waiting for queries…</li></ul></section>")
  }
}
