import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/test: the blocker-test job")
struct TestControllerTests {
  @Test("Its routes, mounted at /api/test")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(
        TestController(tests: dashboard.testService, events: dashboard.events).routes, at: "/api/test")
      #expect(
        routes
          == [
            "GET /api/test", "POST /api/test", "POST /api/test/cancel", "GET /api/test/events", "GET /api/test/result",
          ].sorted())
    }
  }

  @Test("Idle at first; no result yet; the dns probe needs a server")
  func idle() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/test").json?["state"] as? String == "idle")
        #expect(try await client.get("/api/test/result").status == .notFound)
        let dns = try await client.post("/api/test", json: #"{"probe":"dns"}"#, csrf: csrf)
        #expect(dns.status == .badRequest && dns.text.contains("needs a DNS server"))
      }
    }
  }
}
