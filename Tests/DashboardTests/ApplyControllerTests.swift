import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/apply: applying and previewing")
struct ApplyControllerTests {
  @Test("Its routes, mounted at /api/apply")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(ApplyController(applier: dashboard.applier).routes, at: "/api/apply")
      #expect(routes == ["POST /api/apply", "POST /api/apply/preview"].sorted())
    }
  }

  @Test("An unknown target is named")
  func target() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let bad = try await client.post("/api/apply/preview", json: #"{"target":"nginx"}"#, csrf: csrf)
        #expect(bad.status == .badRequest && bad.text.contains("nginx"))
      }
    }
  }
}
