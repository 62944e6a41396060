import Foundation
import Testing

@testable import Dashboard
@testable import UseCases

@Suite("The Why? page")
struct WhyPageControllerTests {
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
    let page = WhyPageController.Page(query: "x.ads.website\"", answer: Self.answer, error: nil)
    let html = PageRenderer(csrf: "c").html("why", model: page)
    #expect(html.contains("value=\"x.ads.website&quot;\""))
    #expect(html.contains("data-why=\"#why-result\""))
    #expect(html.contains("<div id=\"why-result\" aria-live=\"polite\" data-answered=\"x.ads.website\">"))
    #expect(html.contains("<article class=\"card why verdict-coveredByParent\" data-why-name=\"x.ads.website\">"))
    #expect(html.contains("parent ads.website"))
    #expect(html.contains("12,345"))
    #expect(html.contains("0.0.0.0 ads.website &lt;b&gt;"))
    #expect(html.contains("<strong>decides</strong>"))
    #expect(html.contains("hosts: not written; dnsmasq: covered by ads.website"))
    #expect(html.contains("not a valid name: invalid character"))
    // The invalid name's card stops at its summary.
    let invalid = html.components(separatedBy: "data-why-name=\"bad!\"").last ?? ""
    #expect(!invalid.contains("why-outputs"))
  }

  @Test("The script's request gets the answer alone, naming the text it answers; the page without it the whole page")
  func fragment() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let answer = try await client.get("/why?fragment=why-result&name=ads.website").text
        #expect(answer.hasPrefix("<div id=\"why-result\""), "\(answer)")
        #expect(answer.contains("data-answered=\"ads.website\""))
        #expect(!answer.contains("<html"))
        let page = try await client.get("/why?name=ads.website").text
        #expect(page.hasPrefix("<!doctype html>") && page.contains("id=\"why-form\""))
      }
    }
  }
}
