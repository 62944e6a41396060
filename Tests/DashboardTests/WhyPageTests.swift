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
        query: "x.ads.website", name: "x.ads.website", unicode: nil, invalidReason: nil, verdict: .coveredByParent,
        summary: "blocked through its parent ads.website",
        listings: [
          .init(
            source: "ads", sourceName: "Ads", format: "hosts", matched: "ads.website", exact: false, line: 12_345,
            text: "0.0.0.0 ads.website <b>")
        ],
        rules: [.init(rule: "=x.ads.website", allows: true, origin: "rule 1", matched: "x.ads.website", decides: true)],
        publicSuffix: false,
        outputs: [
          .init(format: "hosts", written: .notWritten, parent: nil, reason: "allowed"),
          .init(format: "dnsmasq", written: .coveredByParent, parent: "ads.website", reason: nil),
        ]),
      Explanation(
        query: "bad!", name: nil, unicode: nil, invalidReason: "invalid character", verdict: .invalid,
        summary: "not a valid name: invalid character", listings: [], rules: [], publicSuffix: false, outputs: []),
    ])

  @Test("Every listing with its line and text (escaped), the deciding rule and the outputs; the box keeps the query")
  func render() {
    let html = WhyPage.render(query: "x.ads.website\"", answer: Self.answer, error: nil).output
    #expect(html.contains("value=\"x.ads.website&quot;\""))
    #expect(html.contains("data-why=\"#why-result\""))
    #expect(html.contains("<article class=\"card why verdict-coveredByParent\" data-why-name=\"x.ads.website\">"))
    #expect(html.contains("parent ads.website"))
    #expect(html.contains("12,345"))
    #expect(html.contains("0.0.0.0 ads.website &lt;b&gt;"))
    #expect(html.contains("<strong>decides</strong>"))
    #expect(html.contains("hosts: not written; dnsmasq: covered by ads.website"))
    #expect(html.contains("not a valid name: invalid character"))
  }
}
