import BlockerTest
import Dashboard
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Store
import TestSupport
import Testing

@Suite("Pages: server-rendered, escaped, readable without JavaScript")
struct DashboardPagesTests {
  static let pages = ["/", "/sources", "/test", "/history", "/apply", "/login"]

  @Test("Every page renders with navigation, the CSRF meta tag, a strict CSP and no inline script")
  func everyPage() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        for path in Self.pages {
          let page = try await client.get(path)
          #expect(page.status == .ok, "\(path)")
          #expect(page.text.hasPrefix("<!doctype html>"), "\(path)")
          #expect(
            page.text.contains("<meta name=\"csrf-token\" content=\"\(harness.dashboard.csrfToken)\">"), "\(path)")
          #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
          #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
          #expect(!page.text.contains("<script>"), "no inline script on \(path)")
          #expect(!page.text.contains("style=\""), "no inline style on \(path)")
          #expect(page.text.contains("<main id=\"main\">"))
          #expect(page.text.contains("<a class=\"skip\" href=\"#main\">"))
          if path != "/login" {
            #expect(page.text.contains("<a href=\"\(path)\" aria-current=\"page\">"), "\(path)")
          }
        }
        #expect(try await client.get("/static/app.js").headers[.contentType] == "text/javascript; charset=utf-8")
        #expect(try await client.get("/static/style.css").text.contains("prefers-color-scheme: dark"))
        #expect(try await client.get("/nope").status == .notFound)
      }
    }
  }

  @Test("Hostile text from lists, URLs and the user's registry renders inert")
  func escaping() async throws {
    try await DashboardHarness.with { harness in
      let store = try harness.dashboardStore()
      let hostile = "<script>alert(1)</script>"
      _ = try store.addSource(
        NewSource(
          location: URL(string: "http://127.0.0.1:9/list.txt?x=\"><script>alert(1)</script>")!, key: "evil",
          name: hostile))
      try store.addCustomTestDomain(
        CustomTestDomain(hostname: "custom.website", category: "<img src=x onerror=alert(1)>", provider: hostile))
      try await harness.routes { client async throws in
        for path in Self.pages {
          let page = try await client.get(path).text
          let raw = page.contains(hostile) || page.contains("<img src=x")
          #expect(!raw, "raw markup on \(path)")
        }
        let overview = try await client.get("/").text
        let nameEscaped = overview.contains("&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(nameEscaped)
        let test = try await client.get("/test").text
        let categoryEscaped = test.contains("&lt;img src=x onerror=alert(1)&gt;")
        #expect(categoryEscaped)
      }
    }
  }

  @Test("The Apply page previews without JavaScript (a GET writes nothing) and names the file")
  func applyPreview() async throws {
    try await DashboardHarness.with { harness in
      _ = try harness.dashboardStore().addRule("ads.website", action: .deny)
      let before = try Data(contentsOf: harness.hostsFile)
      try await harness.routes { client async throws in
        let page = try await client.get("/apply?target=hosts&preview=1").text
        #expect(page.contains("+ 0.0.0.0 ads.website"))
        #expect(page.contains("Would apply profile default to \(harness.hostsFile.path)"))
        #expect(try Data(contentsOf: harness.hostsFile) == before)
        // Without JavaScript the Apply button posts the form; the page then says what happened.
        let posted = try await client.execute(
          uri: "/api/apply", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
          body: ByteBuffer(string: "csrf=\(harness.dashboard.csrfToken)&target=hosts&preview=1"))
        #expect(posted.status == .seeOther)
        let location = try #require(posted.headers[.location])
        #expect(location == "/apply?target=hosts&outcome=wrote")
        let after = try await client.get(location).text
        let said = after.contains("Applied to \(harness.hostsFile.path). The previous file is backup ")
        #expect(said)
        #expect(try Data(contentsOf: harness.hostsFile) != before)
        let dropIn = try await client.get("/apply?target=unbound").text
        #expect(dropIn.contains("sanehosts-unbound.conf"))
        #expect(try await client.get("/apply?target=nginx").status == .badRequest)
      }
    }
  }

  @Test("History: cards, a chart with one point per scored run, a run page and a diff page")
  func history() async throws {
    try await DashboardHarness.with { harness in
      let store = try harness.dashboardStore()
      let history = History(store: store)
      for blocked in [2, 5] {
        let results = (0..<6).map { index in
          DomainResult(
            domain: TestDomain(hostname: "d\(index).website", category: "Ads", provider: "P"),
            verdict: Verdict(index < blocked ? .blocked : .reachable, "test"), milliseconds: 1)
        }
        _ = try history.save(
          TestReport(
            startedAt: Date(), milliseconds: 10, probe: .dns, target: "127.0.0.1", timeoutMilliseconds: 2000,
            controls: [], results: results, warnings: []))
      }
      try await harness.routes { client async throws in
        let page = try await client.get("/history").text
        #expect(page.components(separatedBy: "class=\"card run-card\"").count == 3)
        #expect(page.contains("id=\"score-chart\""))
        #expect(page.components(separatedBy: "class=\"dot\"").count == 3)
        #expect(page.contains("<polyline"))
        let run = try await client.get("/history/2").text
        #expect(run.contains("id=\"score-percent\">83.3%<"))
        let diff = try await client.get("/diff?from=1&to=2").text
        #expect(diff.contains("Newly blocked (3)"))
        let overview = try await client.get("/").text
        #expect(overview.contains("data-percent=\"83.3\""))
      }
    }
  }
}
