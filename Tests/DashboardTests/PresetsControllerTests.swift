import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/presets: a preset's lists at once")
struct PresetsControllerTests {
  @Test("Its routes, mounted at /api/presets")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(PresetsController(store: dashboard.store).routes, at: "/api/presets")
      #expect(routes == ["POST /api/presets/{id}"].sorted())
    }
  }

  @Test("A preset adds its lists; again, it is a conflict naming the list; an unknown one is 404")
  func twice() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let first = try await client.post("/api/presets/essentials", csrf: csrf).json?["added"] as? [String]
        #expect(first?.isEmpty == false)
        let second = try await client.post("/api/presets/essentials", csrf: csrf)
        #expect(second.status == .conflict && second.text.contains("already in profile"), "\(second.text)")
        #expect(try await client.post("/api/presets/nope", csrf: csrf).status == .notFound)
      }
    }
  }
}
