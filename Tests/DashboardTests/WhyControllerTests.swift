import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/why: why names are blocked")
struct WhyControllerTests {
  @Test("Its routes, mounted at /api/why")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(WhyController(why: dashboard.why).routes, at: "/api/why")
      #expect(routes == ["GET /api/why"].sorted())
    }
  }

  @Test("One name, several names, none")
  func names() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/api/why?name=a.website").text.contains("\"query\":\"a.website\""))
        #expect(try await client.get("/api/why?name=a.website&name=b.website").text.contains("b.website"))
        let none = try await client.get("/api/why")
        #expect(none.status == .badRequest && none.text.contains("/api/why?name="))
      }
    }
  }
}
