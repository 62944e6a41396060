import Foundation
import Hummingbird
import HummingbirdTesting
import Mustache
import NIOHTTP1
import Store
import Testing
import Traffic

@testable import Dashboard

@Suite("/api/rules: allow and deny rules")
struct RulesControllerTests {
  @Test("Its routes, mounted at /api/rules")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(RulesController(store: dashboard.store).routes, at: "/api/rules")
      #expect(routes == ["GET /api/rules", "POST /api/rules", "POST /api/rules/remove"].sorted())
    }
  }

  @Test("A page to go back to is a path of this dashboard, never another site")
  func localPage() throws {
    #expect(RulesController.localPage("/traffic") == "/traffic")
    #expect(RulesController.localPage("//evil.example") == nil)
    #expect(RulesController.localPage("https://evil.example") == nil)
    #expect(RulesController.localPage("/\\evil") == nil)
    #expect(try RulesController.action("ALLOW") == .allow)
    #expect(throws: DashboardError.self) { try RulesController.action("maybe") }
  }

  @Test(
    "Allow for 1 hour, a day or always: the form's button says how long; a deny rule cannot end; a bad span is named")
  func forAWhile() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        let before = Date()
        for (pattern, span) in [("=hour.website", "1h"), ("=day.website", "1d"), ("=always.website", "")] {
          let form = try await client.request(
            "/api/rules", method: .POST,
            form: "kind=allow&pattern=\(pattern)&for=\(span)&back=%2Ftraffic&csrf=\(client.csrf)")
          #expect(form.status == 303 && form.headers.first(name: "Location") == "/traffic", "\(form.body)")
        }
        let rules = try harness.dashboardStore().rules(action: .allow)
        let ends = Dictionary(uniqueKeysWithValues: rules.map { ($0.text, $0.expiresAt) })
        let hour = try #require(ends["=hour.website"] ?? nil).timeIntervalSince(before)
        let day = try #require(ends["=day.website"] ?? nil).timeIntervalSince(before)
        #expect((3600..<3660).contains(hour) && (86_400..<86_460).contains(day))
        #expect(ends["=always.website"] == .some(nil))
        let deny = try await client.request(
          "/api/rules", method: .POST, json: #"{"kind":"deny","pattern":"x.website","for":"1h"}"#,
          headers: [("X-CSRF-Token", client.csrf)])
        #expect(deny.status == 400 && deny.body.contains("only an allow rule can end"), "\(deny.body)")
        let bad = try await client.request(
          "/api/rules", method: .POST, json: #"{"kind":"allow","pattern":"y.website","for":"soon"}"#,
          headers: [("X-CSRF-Token", client.csrf)])
        #expect(bad.status == 400 && bad.body.contains("“soon” is not a duration"), "\(bad.body)")
        let page = try await client.request("/sources")
        #expect(
          page.body.contains("=hour.website</code> <span class=\"muted rule-ends\">until "), "the list shows the end")
      }
    }
  }

  @Test("The Traffic page's Allow offers 1 hour, a day and always, each a button of one form")
  func allowChoices() throws {
    let html = try #require(
      Templates.library.render(
        TrafficPageController.NameRow(FeedItem(time: Date(), name: "ads.website", type: "A", lists: ["l"])),
        withTemplate: "traffic-hit"))
    for (value, label) in [("1h", "for 1 hour"), ("1d", "a day"), ("", "always")] {
      #expect(html.contains(#"name="for" value="\#(value)""#) && html.contains(">\(label)</button>"), "\(html)")
    }
  }
}
