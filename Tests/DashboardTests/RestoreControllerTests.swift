import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/restore: a backup put back")
struct RestoreControllerTests {
  @Test("Its routes, mounted at /api/restore")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(RestoreController(applier: dashboard.applier).routes, at: "/api/restore")
      #expect(routes == ["POST /api/restore"].sorted())
    }
  }

  @Test("An unknown backup is 404")
  func unknown() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let reply = try await client.post("/api/restore", json: #"{"target":"hosts","id":"nope"}"#, csrf: csrf)
        #expect(reply.status == .notFound)
      }
    }
  }
}
