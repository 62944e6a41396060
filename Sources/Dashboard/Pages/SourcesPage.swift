import Blocklists
import Catalog
import Foundation
import Store
import UseCases

/// Sources and profiles: update with progress and Cancel, the sources, the catalog, presets, rules.
enum SourcesPage {
  struct Model {
    var profile: String
    var profiles: [String]
    var sources: [SourceSummary]
    var rules: [ProfileRule]
    var update: UpdateStatus
    var catalog: Catalog
  }

  static func render(_ model: Model, csrf: String) -> HTML {
    let html = HTML()
    let csrfField = Layout.csrfField(csrf)
    html.raw("<h1>Sources &amp; profiles</h1>")
    updateSection(model, into: html, csrfField: csrfField)
    sourcesSection(model, into: html, csrfField: csrfField)
    rulesSection(model, into: html, csrfField: csrfField)
    profilesSection(model, into: html, csrfField: csrfField)
    catalogSection(model, into: html, csrfField: csrfField)
    return html
  }

  /// The update card: start, cancel, state and each source's progress.
  private static func updateSection(_ model: Model, into html: HTML, csrfField: String) {
    let running = model.update.state == .running
    html.raw(
      "<section class=\"card\" aria-labelledby=\"update-title\" data-events=\"/api/update/events\" id=\"update\">")
    html.raw("<h2 id=\"update-title\">Update</h2><div class=\"row\">")
    html.raw("<form method=\"post\" action=\"/api/update\" data-api>\(csrfField)")
    html.raw("<button id=\"update-start\" type=\"submit\"\(running ? " disabled" : "")>Update now</button></form>")
    html.raw("<form method=\"post\" action=\"/api/update/cancel\" data-api>\(csrfField)")
    html.raw(
      "<button id=\"update-cancel\" type=\"submit\" class=\"secondary\"\(running ? "" : " disabled")>Cancel</button></form>"
    )
    html.raw("<p>State: <strong id=\"update-state\" class=\"state\">").text(model.update.state.rawValue)
    html.raw("</strong> <span id=\"update-step\">").text(model.update.step ?? "").raw("</span></p></div>")
    html.raw("<p id=\"update-message\" aria-live=\"polite\">").text(model.update.message ?? "").raw("</p>")
    html.raw("<div id=\"update-progress\">")
    for row in model.update.sources { html.append(progressRow(row, running: running)) }
    html.raw("</div></section>")
  }

  /// The profile's sources as a table, then the form that adds a list.
  private static func sourcesSection(_ model: Model, into html: HTML, csrfField: String) {
    html.raw("<section aria-labelledby=\"sources-title\"><h2 id=\"sources-title\">Sources of profile ")
    html.text(model.profile).raw("</h2><p class=\"small\"><a href=\"/overlap\">What each list adds</a> · ")
    html.raw("<a href=\"/why\">Why is a name blocked?</a></p><div class=\"scroll\"><table id=\"sources\"><thead><tr>")
    html.raw("<th scope=\"col\">Source</th><th scope=\"col\">Format</th><th scope=\"col\">Status</th>")
    html.raw(
      "<th scope=\"col\" class=\"num\">Names</th><th scope=\"col\" class=\"num\">Before</th><th scope=\"col\" class=\"num\">Change</th><th scope=\"col\">Enabled</th><th scope=\"col\"><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>"
    )
    for source in model.sources { sourceRow(source, into: html, csrfField: csrfField) }
    if model.sources.isEmpty {
      html.raw("<tr><td colspan=\"8\">No sources yet: add a URL or pick from the catalog below.</td></tr>")
    }
    html.raw("</tbody></table></div>")

    html.raw("<form id=\"add-source\" method=\"post\" action=\"/api/sources\" data-api class=\"stack\">\(csrfField)")
    html.raw("<h3>Add a list</h3><label for=\"source-url\">URL</label>")
    html.raw(
      "<input id=\"source-url\" name=\"url\" type=\"url\" required placeholder=\"https://example.org/hosts.txt\">")
    html.raw(
      "<div class=\"row\"><div><label for=\"source-key\">Key (optional)</label><input id=\"source-key\" name=\"key\" pattern=\"[a-z0-9][a-z0-9._\\-]*\"></div>"
    )
    html.raw(
      "<div><label for=\"source-format\">Format</label><select id=\"source-format\" name=\"format\"><option value=\"\">detect</option>"
    )
    for format in InputFormat.allCases { html.raw("<option>\(format.rawValue)</option>") }
    html.raw("</select></div></div><button id=\"add-source-submit\" type=\"submit\">Add</button></form></section>")
  }

  /// One source's row: where it comes from, its status (held back, stale), counts, change, switches.
  private static func sourceRow(_ source: SourceSummary, into html: HTML, csrfField: String) {
    let key = HTML.escape(source.key)
    html.raw("<tr data-source=\"\(key)\"><td><strong>").text(source.key).raw(
      "</strong><br><span class=\"muted small location\">")
    html.text(source.location).raw("</span></td><td data-label=\"Format\">").text(source.format ?? "auto")
    html.raw("</td><td data-label=\"Status\">")
    if let heldNames = source.heldNames {
      // Held back as a suspicious shrink: said in the page's words, with what to do here.
      html.raw("<span class=\"status status-held\">held back</span><br><span class=\"small message\">")
      html.text(
        "The new copy has \(heldNames.counted("name")), under half of the \(source.accepted.map(\.grouped) ?? "?") in use: the copy in use is kept."
      )
      html.raw("</span><br><a class=\"small\" href=\"/sources/\(key)/diff?held=1\">Compare</a> ")
      html.raw("<form method=\"post\" action=\"/api/sources/\(key)/accept\" data-api class=\"inline\">\(csrfField)")
      html.raw("<button type=\"submit\" class=\"small source-accept\">Accept</button></form>")
    } else {
      html.raw("<span class=\"status status-\(HTML.escape(source.status))\">").text(source.status).raw("</span>")
      if let message = source.message { html.raw("<br><span class=\"small message\">").text(message).raw("</span>") }
    }
    if let stale = source.stale {
      html.raw("<br><span class=\"small stale\">").text("may be stale: \(stale.description)").raw("</span>")
    }
    html.raw("</td><td class=\"num\" data-label=\"Names\">").text(source.unique.map(\.grouped) ?? "–")
    if let rejected = source.rejected, rejected > 0 {
      html.raw("<br><span class=\"small muted\">").text("\(rejected.grouped) rejected").raw("</span>")
    }
    html.raw("</td><td class=\"num\" data-label=\"Before\">").text(source.previousUnique.map(\.grouped) ?? "–")
    html.raw("</td><td class=\"num\" data-label=\"Change\">")
    if let change = source.change {
      let text = change > 0 ? "+\(change.grouped)" : change < 0 ? "−\((-change).grouped)" : "0"
      html.raw("<a href=\"/sources/\(key)/diff\" aria-label=\"What changed in \(key)\">").text(text).raw("</a>")
    } else {
      html.raw("–")
    }
    html.raw(
      "</td><td data-label=\"Enabled\"><form method=\"post\" action=\"/api/sources/\(key)/enabled\" data-api data-toggle>\(csrfField)"
    )
    html.raw("<input type=\"hidden\" name=\"enabled\" value=\"\(source.enabled ? "false" : "true")\">")
    html.raw("<label><input type=\"checkbox\" class=\"source-enabled\"\(source.enabled ? " checked" : "")")
    html.raw(" aria-label=\"Use \(key)\" data-submit> <span class=\"visually-hidden\">enabled</span></label>")
    html.raw(
      "<noscript><button type=\"submit\" class=\"small\">\(source.enabled ? "Disable" : "Enable")</button></noscript></form></td>"
    )
    html.raw("<td><form method=\"post\" action=\"/api/sources/\(key)/remove\" data-api>\(csrfField)")
    html.raw(
      "<button type=\"submit\" class=\"source-remove secondary\" aria-label=\"Remove \(key)\">Remove</button></form></td></tr>"
    )
  }

  /// The allow and deny rules, each removable, and the form that adds one.
  private static func rulesSection(_ model: Model, into html: HTML, csrfField: String) {
    html.raw(
      "<section aria-labelledby=\"rules-title\"><h2 id=\"rules-title\">Allow and deny rules</h2><ul id=\"rules\">")
    for rule in model.rules {
      html.raw(
        "<li data-rule=\"\(HTML.escape(rule.text))\"><span class=\"rule rule-\(rule.action.rawValue)\">\(rule.action.rawValue)</span> "
      )
      html.element("code", text: rule.text)
      if let warning = rule.warning { html.raw(" <span class=\"muted rule-warning\">").text(warning).raw("</span>") }
      html.raw(" <form method=\"post\" action=\"/api/rules/remove\" data-api class=\"inline\">\(csrfField)")
      html.raw("<input type=\"hidden\" name=\"kind\" value=\"\(rule.action.rawValue)\">")
      html.raw("<input type=\"hidden\" name=\"pattern\" value=\"\(HTML.escape(rule.text))\">")
      html.raw("<button type=\"submit\" class=\"small secondary\">Remove</button></form></li>")
    }
    if model.rules.isEmpty { html.raw("<li class=\"muted\">No rules.</li>") }
    html.raw("</ul><form id=\"add-rule\" method=\"post\" action=\"/api/rules\" data-api class=\"row\">\(csrfField)")
    html.raw(
      "<div><label for=\"rule-kind\">Rule</label><select id=\"rule-kind\" name=\"kind\"><option>allow</option><option>deny</option></select></div>"
    )
    html.raw(
      "<div><label for=\"rule-pattern\">Name or *.wildcard</label><input id=\"rule-pattern\" name=\"pattern\" required></div>"
    )
    html.raw("<button type=\"submit\">Add rule</button></form></section>")
  }

  /// The profiles, the active one marked, and the form that creates one.
  private static func profilesSection(_ model: Model, into html: HTML, csrfField: String) {
    html.raw(
      "<section aria-labelledby=\"profiles-title\"><h2 id=\"profiles-title\">Profiles</h2><ul id=\"profiles\" class=\"plain\">"
    )
    for name in model.profiles {
      html.raw("<li>").text(name)
      if name == model.profile {
        html.raw(" <strong>(active)</strong>")
      } else {
        html.raw(
          " <form method=\"post\" action=\"/api/profiles/\(HTML.escape(name))/use\" data-api class=\"inline\">\(csrfField)"
        )
        html.raw("<button type=\"submit\" class=\"small secondary\">Use</button></form>")
      }
      html.raw("</li>")
    }
    html.raw("</ul><form method=\"post\" action=\"/api/profiles\" data-api class=\"row\">\(csrfField)")
    html.raw(
      "<div><label for=\"profile-name-new\">New profile</label><input id=\"profile-name-new\" name=\"name\" required></div>"
    )
    html.raw("<button type=\"submit\">Create</button></form></section>")
  }

  /// The catalog: presets, a filter and every list with its Add button.
  private static func catalogSection(_ model: Model, into html: HTML, csrfField: String) {
    let added = Set(model.sources.map(\.location))
    html.raw(
      "<section aria-labelledby=\"catalog-title\"><h2 id=\"catalog-title\">Catalog</h2><p>Presets add several lists at once:</p><div class=\"row wrap\">"
    )
    for preset in model.catalog.presets {
      html.raw(
        "<form method=\"post\" action=\"/api/presets/\(HTML.escape(preset.id))\" data-api class=\"inline\">\(csrfField)"
      )
      html.raw("<button type=\"submit\" class=\"secondary\" title=\"\(HTML.escape(preset.description))\">")
      html.text(preset.name).raw("</button></form>")
    }
    html.raw(
      "</div><label for=\"catalog-filter\">Filter the catalog</label><input id=\"catalog-filter\" type=\"search\" data-filter=\"#catalog tbody tr\">"
    )
    html.raw(
      "<div class=\"scroll\"><table id=\"catalog\" class=\"stack\"><thead><tr><th scope=\"col\">List</th><th scope=\"col\">Category</th>"
    )
    html.raw(
      "<th scope=\"col\" class=\"num\">Size</th><th scope=\"col\"><span class=\"visually-hidden\">Add</span></th></tr></thead><tbody>"
    )
    for entry in model.catalog.sources {
      let category = model.catalog.category(id: entry.category)?.name ?? entry.category
      html.raw("<tr data-catalog=\"\(HTML.escape(entry.id))\"><td><strong>").text(entry.name)
      html.raw("</strong><br><span class=\"small muted\">").text(entry.description).raw("</span></td><td>").text(
        category)
      html.raw("</td><td class=\"num\">").text("~\(entry.estimatedNames.grouped)").raw("</td><td>")
      if added.contains(entry.url.absoluteString) {
        html.raw("<span class=\"muted\">added</span>")
      } else {
        html.raw("<form method=\"post\" action=\"/api/sources\" data-api class=\"inline\">\(csrfField)")
        html.raw("<input type=\"hidden\" name=\"catalog\" value=\"\(HTML.escape(entry.id))\">")
        html.raw(
          "<button type=\"submit\" class=\"small\" data-add=\"\(HTML.escape(entry.id))\" aria-label=\"Add \(HTML.escape(entry.name))\">Add</button></form>"
        )
      }
      html.raw("</td></tr>")
    }
    html.raw("</tbody></table></div></section>")
  }

  /// One source's progress row.
  /// One source's progress row: its key, bar, phase and a Cancel button for that source alone (enabled
  /// while the run goes on and the source has not ended; hidden until the page's script, which posts it,
  /// shows it).
  static func progressRow(_ row: UpdateStatus.SourceRow, running: Bool) -> HTML {
    let html = HTML()
    let key = HTML.escape(row.key)
    html.raw(
      "<div class=\"source-progress phase-row-\(HTML.escape(row.phase))\" data-source=\"\(key)\"><span class=\"key\">")
    html.text(row.key)
    html.raw(
      "</span><progress max=\"1\" value=\"\(String(format: "%.3f", row.fraction))\" aria-label=\"\(key)\"></progress>")
    html.raw("<span class=\"phase phase-\(HTML.escape(row.phase))\">").text(row.detail).raw("</span>")
    html.raw(
      "<button type=\"button\" class=\"source-cancel secondary small\" data-key=\"\(key)\" aria-label=\"Cancel \(key)\" hidden\(running && !row.isFinished ? "" : " disabled")>Cancel</button></div>"
    )
    return html
  }
}
