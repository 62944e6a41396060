import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/history: the saved runs")
struct HistoryControllerTests {
  @Test("Its routes, mounted at /api/history")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(HistoryController(reports: dashboard.reports).routes, at: "/api/history")
      #expect(routes == ["GET /api/history", "GET /api/history/{id}", "GET /api/history/{id}/export"].sorted())
    }
  }

  @Test("No run yet; a bad id is 400, an unknown one 404")
  func runs() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/history").text == "[]")
        #expect(try await client.get("/api/history/abc").status == .badRequest)
        #expect(try await client.get("/api/history/7/export?format=text").status == .notFound)
      }
    }
  }
}
