import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/diff: two runs compared")
struct RunDiffControllerTests {
  @Test("Its routes, mounted at /api/diff")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(RunDiffController(reports: dashboard.reports).routes, at: "/api/diff")
      #expect(routes == ["GET /api/diff"].sorted())
    }
  }

  @Test("Two runs are needed")
  func two() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/diff?from=1").status == .badRequest)
      }
    }
  }
}
