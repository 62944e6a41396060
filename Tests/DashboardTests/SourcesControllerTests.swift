import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/sources: the active profile's sources")
struct SourcesControllerTests {
  @Test("Its routes, mounted at /api/sources")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(SourcesController(store: dashboard.store).routes, at: "/api/sources")
      #expect(
        routes
          == [
            "GET /api/sources", "POST /api/sources", "POST /api/sources/{key}/remove",
            "POST /api/sources/{key}/enabled", "POST /api/sources/{key}/accept", "GET /api/sources/{key}/diff",
          ].sorted())
    }
  }

  @Test("A source with one copy has nothing to compare yet")
  func oneCopy() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        _ = try await client.post("/api/sources", json: #"{"url":"http://127.0.0.1:9/a.txt","key":"a"}"#, csrf: csrf)
        let diff = try await client.get("/api/sources/a/diff").json
        #expect(diff?["message"] as? String == "There is only one copy so far: nothing to compare yet.")
      }
    }
  }
}
