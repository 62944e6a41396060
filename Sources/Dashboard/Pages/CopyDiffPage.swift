import Blocklists
import Foundation
import Store

/// What a source's last update changed (or what its held-back copy would change), with Accept for a held copy.
enum CopyDiffPage {
  static func render(key: String, held: Bool, difference: Store.CopyDifference?, csrf: String) -> HTML {
    let html = HTML()
    html.raw("<h1>").text(held ? "\(key): the copy held back" : "\(key): the last change").raw("</h1>")
    guard let difference else {
      html.raw("<p>").text(
        held
          ? "\(key) has no copy held back: there is nothing to compare."
          : "\(key) has only one copy so far: there is nothing to compare yet."
      ).raw("</p><p><a href=\"/sources\">Back to the sources</a></p>")
      return html
    }
    html.raw("<p id=\"diff-summary\">").text(
      "\(difference.from) copy \(difference.before.counted("name")) → \(difference.to) copy \(difference.after.counted("name")): \(difference.addedCount.grouped) added, \(difference.removedCount.grouped) removed."
    ).raw("</p>")
    if held {
      html.raw("<form method=\"post\" action=\"/api/sources/\(HTML.escape(key))/accept\" data-api ")
      html.raw("data-confirm=\"Use the smaller copy from now on?\">\(Layout.csrfField(csrf))")
      html.raw("<button id=\"accept-held\" type=\"submit\">Accept this copy</button></form>")
    }
    for (title, names, count, id) in [
      ("Added", difference.added, difference.addedCount, "diff-added"),
      ("Removed", difference.removed, difference.removedCount, "diff-removed"),
    ] {
      html.raw("<section><h2>").text("\(title) (\(count.grouped))").raw("</h2><ul id=\"\(id)\" class=\"names\">")
      for name in names { html.raw("<li><a href=\"/why?name=\(HTML.escape(name))\">").text(name).raw("</a></li>") }
      html.raw("</ul>")
      if count > names.count {
        html.raw("<p class=\"muted\">").text("… and \((count - names.count).grouped) more").raw("</p>")
      }
      html.raw("</section>")
    }
    html.raw("<p><a href=\"/sources\">Back to the sources</a></p>")
    return html
  }
}
