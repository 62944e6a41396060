import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/backups: a target's backups")
struct BackupsControllerTests {
  @Test("Its routes, mounted at /api/backups")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(BackupsController(applier: dashboard.applier).routes, at: "/api/backups")
      #expect(routes == ["GET /api/backups"].sorted())
    }
  }

  @Test("None before the first apply")
  func none() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/backups?target=hosts").text == "[]")
      }
    }
  }
}
