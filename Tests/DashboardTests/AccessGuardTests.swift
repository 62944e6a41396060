import Dashboard
import Foundation
import NIOHTTP1
import Store
import TestSupport
import Testing

@Suite("Access guard: Host check, token, CSRF and same-origin")
struct AccessGuardTests {
  @Test("A cross-origin POST is refused even with the CSRF token; nothing changes")
  func crossOrigin() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        let url = #"{"url":"http://127.0.0.1:9/list.txt"}"#
        let foreign = try await client.request(
          "/api/sources", method: .POST, json: url, csrf: true, headers: [("Origin", "http://evil.website")])
        #expect(foreign.status == 403)
        #expect(foreign.body.contains("evil.website"))
        let crossSite = try await client.request(
          "/api/sources", method: .POST, json: url, csrf: true, headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        let sources = try await client.request("/api/sources")
        #expect(sources.body == "[]")
        // The same request from the dashboard's own origin is taken.
        let own = try await client.request(
          "/api/sources", method: .POST, json: url, csrf: true, headers: [("Origin", client.base)])
        #expect(own.status == 201, "\(own.body)")
      }
    }
  }

  @Test("No CORS: a foreign origin gets no Access-Control header on any answer, and a preflight grants nothing")
  func noCORS() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        let origin = [("Origin", "http://evil.website")]
        var replies = [
          try await client.request("/api/status", headers: origin),
          try await client.request("/api/session", headers: origin),
          try await client.request("/lists/default.hosts", headers: origin),
          try await client.request("/", headers: origin),
          try await client.request("/api/sources", method: .POST, json: "{}", csrf: true, headers: origin),
        ]
        replies.append(
          try await client.request(
            "/api/sources", method: .OPTIONS,
            headers: origin + [
              ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "x-csrf-token"),
            ]
          ))
        for reply in replies {
          let granted = reply.headers.filter { $0.name.lowercased().hasPrefix("access-control-") }
          #expect(granted.isEmpty, "\(reply.status): \(granted)")
        }
        #expect(
          replies.last.map { (200..<300).contains($0.status) } == false, "a preflight is not answered with success")
      }
    }
  }

  @Test("A POST without the CSRF token, or with a wrong one, is refused; a form may carry it as a field")
  func csrf() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        let missing = try await client.request(
          "/api/rules", method: .POST, json: #"{"kind":"deny","pattern":"a.website"}"#)
        #expect(missing.status == 403)
        let wrong = try await client.request(
          "/api/rules", method: .POST, json: #"{"kind":"deny","pattern":"a.website"}"#,
          headers: [("X-CSRF-Token", String(repeating: "0", count: 64))])
        #expect(wrong.status == 403)
        let badForm = try await client.request(
          "/api/rules", method: .POST, form: "kind=deny&pattern=a.website&csrf=nope")
        #expect(badForm.status == 403)
        #expect(badForm.body.contains("<html"), "a browser form gets a page")
        let form = try await client.request(
          "/api/rules", method: .POST, form: "kind=deny&pattern=a.website&csrf=\(client.csrf)")
        #expect(form.status == 303)
        #expect(form.headers.first(name: "Location") == "/sources")
        #expect(try harness.dashboardStore().rules().map(\.pattern) == ["a.website"])
      }
    }
  }

  @Test("On loopback, a Host header naming another machine is refused (DNS rebinding)")
  func rebinding() async throws {
    try await DashboardHarness.with { harness in
      try await harness.live { client async throws in
        let evil = try await client.request("/api/status", headers: [("Host", "rebind.evil.website:\(client.port)")])
        #expect(evil.status == 421)
        for host in ["localhost:\(client.port)", "127.0.0.1:\(client.port)", "[::1]:\(client.port)"] {
          #expect(try await client.request("/api/status", headers: [("Host", host)]).status == 200, "\(host)")
        }
      }
    }
  }

  @Test("Off loopback every request needs the token: bearer, the /login cookie, or ?token= for lists only")
  func token() async throws {
    let token = "0123456789abcdef0123456789abcdef"
    try await DashboardHarness.with(host: "0.0.0.0", token: token) { harness in
      try await harness.live { client async throws in
        #expect(try await client.request("/api/status").status == 401)
        let page = try await client.request("/", headers: [("Accept", "text/html")])
        #expect(page.status == 303 && page.headers.first(name: "Location") == "/login")
        #expect(try await client.request("/api/status?token=\(token)").status == 401)
        let bearer = try await client.request("/api/status", headers: [("Authorization", "Bearer \(token)")])
        #expect(bearer.status == 200)
        // A script with the bearer token may change things without the CSRF token…
        let rule = try await client.request(
          "/api/rules", method: .POST, json: #"{"kind":"deny","pattern":"b.website"}"#,
          headers: [("Authorization", "Bearer \(token)")])
        #expect(rule.status == 201)
        // …but not from a foreign origin.
        let foreign = try await client.request(
          "/api/rules", method: .POST, json: #"{"kind":"deny","pattern":"c.website"}"#,
          headers: [("Authorization", "Bearer \(token)"), ("Origin", "http://evil.website")])
        #expect(foreign.status == 403)
        // Signing in sets an HttpOnly, SameSite=Strict cookie that opens the pages.
        let wrongLogin = try await client.request("/login", method: .POST, form: "token=nope")
        #expect(wrongLogin.status == 401)
        let login = try await client.request("/login", method: .POST, form: "token=\(token)")
        #expect(login.status == 303)
        let cookie = try #require(login.headers.first(name: "Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let withCookie = try await client.request(
          "/", headers: [("Cookie", String(cookie.split(separator: ";")[0]))])
        #expect(withCookie.status == 200 && withCookie.body.contains("id=\"names-blocked\""))
        // The list subscription takes the token in the URL (a Pi-hole cannot send headers).
        _ = try harness.dashboardStore().addRule("d.website", action: .deny)
        let list = try await client.request("/lists/default.txt?token=\(token)")
        #expect(list.status == 200 && list.body.contains("d.website"))
        #expect(try await client.request("/lists/default.txt").status == 401)
        // The token never reaches a page.
        #expect(!withCookie.body.contains(token))
      }
    }
  }

  @Test("Binding beyond loopback without a token, or with a short one, is refused with advice")
  func configuration() throws {
    let data = DataDirectory(url: URL(fileURLWithPath: "/nonexistent/sanehosts"))
    #expect(throws: DashboardError.tokenRequired(host: "0.0.0.0")) {
      try Dashboard(configuration: DashboardConfiguration(host: "0.0.0.0", data: data))
    }
    #expect(throws: DashboardError.weakToken(length: 5)) {
      try Dashboard(configuration: DashboardConfiguration(host: "0.0.0.0", token: "short", data: data))
    }
    #expect(throws: DashboardError.invalidToken) {
      try Dashboard(
        configuration: DashboardConfiguration(host: "0.0.0.0", token: "0123456789abcdef; path=/", data: data))
    }
    #expect(DashboardError.tokenRequired(host: "0.0.0.0").errorDescription?.contains("--token") == true)
  }
}

extension DashboardHarness {
  /// The store the dashboard uses (a second connection to the same database).
  func dashboardStore() throws -> Store { try Store.open(data) }
}
