import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/update: the update job")
struct UpdateControllerTests {
  @Test("Its routes, mounted at /api/update")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(
        UpdateController(updates: dashboard.updateService, events: dashboard.events).routes, at: "/api/update")
      #expect(
        routes
          == [
            "GET /api/update", "POST /api/update", "POST /api/update/cancel", "POST /api/update/sources/{key}/cancel",
            "GET /api/update/events",
          ].sorted())
    }
  }

  @Test("Idle at first; nothing to cancel; a source not in the run is 404")
  func idle() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/update").json?["state"] as? String == "idle")
        #expect(try await client.post("/api/update/cancel", csrf: csrf).json?["cancelled"] as? Bool == false)
        #expect(try await client.post("/api/update/sources/nope/cancel", csrf: csrf).status == .notFound)
      }
    }
  }
}
