import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Store
import TestSupport
import Testing

@testable import Dashboard

@Suite("Dashboard")
struct DashboardTests {
  @Test("A fresh data directory: the store is created with the default profile, and each run has its own CSRF token")
  func fresh() async throws {
    try await DashboardHarness.with { harness in
      #expect(try harness.dashboardStore().activeProfile().name == "default")
      #expect(harness.dashboard.csrfToken.count == 64)
      let other = try Dashboard(configuration: harness.dashboard.configuration)
      #expect(other.csrfToken != harness.dashboard.csrfToken)
      try await harness.routes { client async throws in
        let status = try await client.get("/api/status").json
        #expect(status?["profile"] as? String == "default")
        #expect((status?["warnings"] as? [String])?.first?.contains("no source yet") == true)
        #expect(
          (status?["subscriptions"] as? [String]) == [
            "/lists/default.hosts", "/lists/default.txt", "/lists/default.adblock",
          ])
      }
    }
  }

  @Test(
    "Regression: HEAD answers every page and API route as GET does, without a body (HEAD /traffic was 404); an unknown address gets a 404 that says so (its body was empty)"
  )
  func headAndUnknown() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        for path in ["/", "/sources", "/traffic", "/why", "/api/status"] {
          let head = try await client.execute(uri: path, method: .head)
          #expect(head.status == .ok, "HEAD \(path)")
          #expect(head.body.readableBytes == 0, "HEAD \(path)")
        }
        let missing = try await client.get("/nope")
        #expect(missing.status == .notFound)
        #expect(String(buffer: missing.body).contains("Nothing is at /nope."), "\(String(buffer: missing.body))")
        let page = try await client.get("/nope", headers: [.accept: "text/html"])
        #expect(page.status == .notFound && String(buffer: page.body).contains("Nothing is at /nope."))
        #expect(try await client.execute(uri: "/nope", method: .head).status == .notFound)
      }
    }
  }

  @Test("The router: every page, API resource and list from its own controller, each route once, none clashing")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let router = harness.dashboard.router()
      try router.validate()
      let all = router.routes.map { "\($0.method) \($0.path)" }
      #expect(Set(all).count == all.count)
      let api = all.filter { $0.split(separator: " ")[1].hasPrefix("/api/") }
      #expect(api.count == 40, "\(api.sorted())")
      for route in ["POST /api/update/sources/{key}/cancel", "GET /api/history/{id}/export", "GET /api/test/events"] {
        #expect(api.contains(route), "\(route)")
      }
      let pages = Set(all).subtracting(api)
      #expect(
        pages == [
          "GET /", "GET /sources", "GET /sources/events", "GET /sources/{key}/diff", "GET /why", "GET /traffic",
          "GET /traffic/feed", "GET /overlap", "GET /test", "GET /test/events", "GET /history", "GET /history/{id}",
          "GET /diff", "GET /apply", "POST /apply", "GET /fleet", "POST /fleet", "GET /login", "POST /login",
          "GET /static/style.css",
          "GET /static/app.js", "GET /lists/{file}", "HEAD /lists/{file}", "GET /metrics",
        ], "\(pages.sorted())")
    }
  }
}
