import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/session: the CSRF token for scripts")
struct SessionControllerTests {
  @Test("Its routes, mounted at /api/session")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(SessionController(csrf: dashboard.csrfToken).routes, at: "/api/session")
      #expect(routes == ["GET /api/session"].sorted())
    }
  }

  @Test("The token every page carries")
  func token() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/session").json?["csrf"] as? String == harness.dashboard.csrfToken)
      }
    }
  }
}
