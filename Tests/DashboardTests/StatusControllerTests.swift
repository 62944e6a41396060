import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/status: the overview as JSON")
struct StatusControllerTests {
  @Test("Its routes, mounted at /api/status")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(
        StatusController(storeView: dashboard.storeView, update: dashboard.updates.relay, test: dashboard.tests.relay)
          .routes, at: "/api/status")
      #expect(routes == ["GET /api/status"].sorted())
    }
  }

  @Test("The active profile, its warnings and the jobs' states")
  func status() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let status = try await client.get("/api/status").json
        #expect(status?["profile"] as? String == "default")
        #expect((status?["update"] as? [String: Any])?["state"] as? String == "idle")
      }
    }
  }
}
