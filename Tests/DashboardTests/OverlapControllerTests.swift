import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/overlap: names per list, shared and unique")
struct OverlapControllerTests {
  @Test("Its routes, mounted at /api/overlap")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(OverlapController(store: dashboard.store).routes, at: "/api/overlap")
      #expect(routes == ["GET /api/overlap"].sorted())
    }
  }

  @Test("An empty profile overlaps nothing")
  func empty() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/overlap").json?["total"] as? Int == 0)
      }
    }
  }
}
