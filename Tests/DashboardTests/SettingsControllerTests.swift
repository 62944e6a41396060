import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/settings: the pages' defaults")
struct SettingsControllerTests {
  @Test("Its routes, mounted at /api/settings")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(SettingsController(data: dashboard.configuration.data).routes, at: "/api/settings")
      #expect(routes == ["GET /api/settings", "POST /api/settings"].sorted())
    }
  }

  @Test("The defaults before anything is saved")
  func defaults() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let settings = try await client.get("/api/settings").json
        #expect(settings?["probe"] as? String == "system" && settings?["target"] as? String == "hosts")
      }
    }
  }
}
