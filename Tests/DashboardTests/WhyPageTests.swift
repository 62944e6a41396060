import Foundation
import Testing

@testable import Dashboard
@testable import UseCases

@Suite("The Why? page")
struct WhyPageTests {
  static let answer = Explainer.Answer(
    profile: "p", sources: ["ads"], missing: [], unreadable: [], compiledCurrent: true,
    names: [
      Explanation(
        query: "x.ads.example", name: "x.ads.example", unicode: nil, invalidReason: nil, verdict: .coveredByParent,
        summary: "blocked through its parent ads.example",
        listings: [
          .init(
            source: "ads", sourceName: "Ads", format: "hosts", matched: "ads.example", exact: false, line: 12_345,
            text: "0.0.0.0 ads.example <b>")
        ],
        rules: [.init(rule: "=x.ads.example", allows: true, origin: "rule 1", matched: "x.ads.example", decides: true)],
        publicSuffix: false,
        outputs: [
          .init(format: "hosts", written: .notWritten, parent: nil, reason: "allowed"),
          .init(format: "dnsmasq", written: .coveredByParent, parent: "ads.example", reason: nil),
        ]),
      Explanation(
        query: "bad!", name: nil, unicode: nil, invalidReason: "invalid character", verdict: .invalid,
        summary: "not a valid name: invalid character", listings: [], rules: [], publicSuffix: false, outputs: []),
    ])

  @Test("Every listing with its line and text (escaped), the deciding rule and the outputs; the box keeps the query")
  func render() {
    let html = WhyPage.render(query: "x.ads.example\"", answer: Self.answer, error: nil).output
    #expect(html.contains("value=\"x.ads.example&quot;\""))
    #expect(html.contains("data-why=\"#why-result\""))
    #expect(html.contains("<article class=\"card why verdict-coveredByParent\" data-why-name=\"x.ads.example\">"))
    #expect(html.contains("parent ads.example"))
    #expect(html.contains("12,345"))
    #expect(html.contains("0.0.0.0 ads.example &lt;b&gt;"))
    #expect(html.contains("<strong>decides</strong>"))
    #expect(html.contains("hosts: not written; dnsmasq: covered by ads.example"))
    #expect(html.contains("not a valid name: invalid character"))
  }
}
