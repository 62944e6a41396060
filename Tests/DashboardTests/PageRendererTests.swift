import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Mustache
import Testing
import Traffic

@testable import Dashboard

@Suite("The page renderer: the layout around every page, fragments alone")
struct PageRendererTests {
  @Test("A page comes with the security headers: HTML type, no framing, no sniffing, a strict CSP")
  func headers() {
    let response = PageRenderer(csrf: "abc").page(
      "login", title: "T <x>", section: "/history", model: LoginPageController.Page(failed: false))
    #expect(response.status == .ok)
    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
    #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
    #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
    #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'; script-src 'self'") == true)
  }

  @Test(
    "The layout: the title escaped, the CSRF token, the current section marked, the flash hidden unless it says something"
  )
  func layout() {
    let renderer = PageRenderer(csrf: "a\"b")
    let frame = PageRenderer.Frame(
      pageTitle: "T <x>", csrf: "a\"b",
      nav: PageRenderer.sections.map { .init(path: $0.path, label: $0.label, current: $0.path == "/history") },
      flash: nil, template: "login", page: LoginPageController.Page(failed: false))
    let html = renderer.library.render(frame, withTemplate: "layout") ?? ""
    #expect(html.hasPrefix("<!doctype html>"))
    #expect(html.contains("<title>T &lt;x&gt; · SaneHosts</title>"))
    #expect(html.contains("<meta name=\"csrf-token\" content=\"a&quot;b\">"))
    #expect(html.contains("<a href=\"/history\" aria-current=\"page\">History</a>"))
    #expect(html.contains("<a href=\"/\">Overview</a>"))
    #expect(html.contains("<div id=\"flash\" role=\"alert\" aria-live=\"assertive\" hidden></div>"))
    #expect(html.contains("<main id=\"main\">") && html.contains("<h1>Sign in</h1>"))
    #expect(
      renderer.html("csrf", model: LoginPageController.Page(failed: false))
        == "<input type=\"hidden\" name=\"csrf\" value=\"a&quot;b\">")
  }

  @Test("An error for a browser is a page whose flash says it (what the script swaps in); for a script, JSON")
  func errorPage() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let page = try await client.get("/api/history/abc", headers: [.accept: "text/html"])
        #expect(page.status == .badRequest)
        #expect(
          page.text.contains("<div id=\"flash\" role=\"alert\" aria-live=\"assertive\">&quot;abc&quot; is not a run id")
        )
        #expect(page.text.contains("<h1>Bad Request</h1>"))
        #expect(
          try await client.get("/api/history/abc").json?["error"] as? String == "\"abc\" is not a run id (a number).")
      }
    }
  }

  @Test("A fragment is its template alone, with the run's CSRF token, and no layout")
  func fragment() {
    let row = TrafficPageController.NameRow(.init(name: "ads.website", queries: 1, lists: []), pending: false)
    let html = PageRenderer(csrf: "tok").html("allow-form", model: row)
    #expect(html.hasPrefix("<form method=\"post\" action=\"/api/rules\""))
    #expect(html.contains("value=\"tok\"") && !html.contains("<html"))
  }
}
