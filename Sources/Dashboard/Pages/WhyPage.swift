import Foundation
import UseCases

/// Why? : explain a name (every list, line and rule), with a search box the script answers as you type.
enum WhyPage {
  static func render(query: String, answer: Explainer.Answer?, error: String?) -> HTML {
    let html = HTML()
    html.raw("<h1>Why is a name blocked?</h1>")
    html.raw("<form id=\"why-form\" method=\"get\" action=\"/why\" role=\"search\" class=\"row\">")
    html.raw("<div><label for=\"why-name\">Name</label>")
    html.raw("<input id=\"why-name\" name=\"name\" type=\"search\" autocomplete=\"off\" spellcheck=\"false\"")
    html.raw(" placeholder=\"ads.example.com\" data-why=\"#why-result\" value=\"\(HTML.escape(query))\"></div>")
    html.raw("<button type=\"submit\">Explain</button></form>")
    html.raw("<p class=\"muted small\">Answered from the saved copies of the active profile's lists and its rules, ")
    html.raw("before anything is applied.</p>")
    html.raw("<div id=\"why-result\" aria-live=\"polite\">")
    if let error { html.raw("<p class=\"message\">").text(error).raw("</p>") }
    if let answer {
      if answer.sources.isEmpty {
        html.raw("<p>No list of this profile has a saved copy yet: press Update now on the Sources page.</p>")
      }
      if !answer.unreadable.isEmpty {
        html.raw("<p class=\"message\">").text(
          "Not searched, their saved copy cannot be read (press Update now on the Sources page): \(answer.unreadable.joined(separator: ", "))."
        ).raw("</p>")
      }
      if !answer.compiledCurrent && !answer.sources.isEmpty {
        html.raw("<p class=\"muted\">Sources, rules or copies changed since the last compile: this is what the ")
        html.raw("next update or apply will block.</p>")
      }
      for explanation in answer.names { html.append(render(explanation, profile: answer.profile)) }
    }
    html.raw("</div>")
    return html
  }

  /// One name's explanation (the script builds the same markup from `/api/why`).
  static func render(_ explanation: Explanation, profile: String) -> HTML {
    let html = HTML()
    html.raw("<article class=\"card why verdict-\(explanation.verdict.rawValue)\" data-why-name=\"")
    html.raw(HTML.escape(explanation.name ?? explanation.query)).raw("\"><h2>")
    html.text(explanation.name ?? explanation.query)
    if let unicode = explanation.unicode { html.raw(" <span class=\"muted\">(").text(unicode).raw(")</span>") }
    html.raw("</h2><p class=\"why-summary\"><strong>").text(explanation.summary).raw("</strong></p>")
    guard explanation.verdict != .invalid else { return html }
    if explanation.listings.isEmpty {
      html.raw("<p>").text("Listed by no source of profile \(profile).").raw("</p>")
    } else {
      html.raw("<div class=\"scroll\"><table class=\"why-listings stack\"><thead><tr><th scope=\"col\">Source</th>")
      html.raw("<th scope=\"col\">Lists</th><th scope=\"col\" class=\"num\">Line</th><th scope=\"col\">As written</th>")
      html.raw("</tr></thead><tbody>")
      for listing in explanation.listings {
        html.raw("<tr><td>").text(listing.source).raw("</td><td>")
        html.text(listing.exact ? "the name" : "parent \(listing.matched)")
        if let format = listing.format { html.raw(" <span class=\"muted small\">").text(format).raw("</span>") }
        html.raw("</td><td class=\"num\">").text(listing.line.map(\.grouped) ?? "–").raw("</td><td><code>")
        html.text(listing.text ?? "").raw("</code></td></tr>")
      }
      html.raw("</tbody></table></div>")
    }
    if !explanation.rules.isEmpty {
      html.raw("<ul class=\"why-rules\">")
      for rule in explanation.rules {
        html.raw(
          "<li><span class=\"rule rule-\(rule.allows ? "allow" : "deny")\">\(rule.allows ? "allow" : "deny")</span> ")
        html.element("code", text: rule.rule)
        if rule.matched != explanation.name { html.text(" on parent \(rule.matched)") }
        if rule.decides { html.raw(" <strong>decides</strong>") }
        html.raw("</li>")
      }
      html.raw("</ul>")
    }
    if explanation.publicSuffix {
      html.raw("<p>A public suffix: formats that block subdomains leave it out.</p>")
    }
    html.raw("<p class=\"why-outputs\"><span class=\"muted\">Outputs:</span> ")
    html.text(
      explanation.outputGroups.map { "\($0.formats.joined(separator: ", ")): \($0.how)" }.joined(separator: "; "))
    html.raw("</p></article>")
    return html
  }
}
