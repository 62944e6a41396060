import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Testing

@testable import Dashboard

@Suite("/api/rules: allow and deny rules")
struct RulesControllerTests {
  @Test("Its routes, mounted at /api/rules")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(RulesController(store: dashboard.store).routes, at: "/api/rules")
      #expect(routes == ["GET /api/rules", "POST /api/rules", "POST /api/rules/remove"].sorted())
    }
  }

  @Test("A page to go back to is a path of this dashboard, never another site")
  func localPage() throws {
    #expect(RulesController.localPage("/traffic") == "/traffic")
    #expect(RulesController.localPage("//evil.example") == nil)
    #expect(RulesController.localPage("https://evil.example") == nil)
    #expect(RulesController.localPage("/\\evil") == nil)
    #expect(try RulesController.action("ALLOW") == .allow)
    #expect(throws: DashboardError.self) { try RulesController.action("maybe") }
  }
}
