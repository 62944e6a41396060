import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/profiles: the profiles")
struct ProfilesControllerTests {
  @Test("Its routes, mounted at /api/profiles")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(ProfilesController(store: dashboard.store).routes, at: "/api/profiles")
      #expect(routes == ["GET /api/profiles", "POST /api/profiles", "POST /api/profiles/{name}/use"].sorted())
    }
  }

  @Test("Creating one twice is a conflict")
  func conflict() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        #expect(try await client.post("/api/profiles", json: #"{"name":"kids"}"#, csrf: csrf).status == .created)
        #expect(try await client.post("/api/profiles", json: #"{"name":"kids"}"#, csrf: csrf).status == .conflict)
        #expect(try await client.get("/api/profiles").jsonArray?.count == 2)
      }
    }
  }
}
