import Foundation
import Hummingbird
import Testing

@testable import Dashboard

/// The API's controllers (Sources/Dashboard/API/Controllers): one per resource, each adding its routes.
@Suite("API controllers, one per resource")
struct APIControllersTests {
  /// Each controller's routes, as `METHOD /path`.
  static func routes(_ add: (Dashboard, RouterGroup<DashboardContext>) -> Void) async throws -> [String] {
    try await DashboardHarness.with { harness in
      let router = Router(context: DashboardContext.self)
      add(harness.dashboard, router.group("api"))
      try router.validate()
      return router.routes.map { "\($0.method) \($0.path)" }.sorted()
    }
  }

  @Test("Each resource's routes come from its own controller, all under /api, none clashing")
  func perResource() async throws {
    let expected: [(String, (Dashboard, RouterGroup<DashboardContext>) -> Void, [String])] = [
      ("status", { StatusController(dashboard: $0).addRoutes(to: $1) }, ["GET /api/session", "GET /api/status"]),
      (
        "profiles", { ProfilesController(dashboard: $0).addRoutes(to: $1) },
        ["GET /api/profiles", "POST /api/profiles", "POST /api/profiles/{name}/use"]
      ),
      (
        "rules", { RulesController(dashboard: $0).addRoutes(to: $1) },
        ["GET /api/rules", "POST /api/rules", "POST /api/rules/remove"]
      ),
      (
        "settings", { SettingsController(dashboard: $0).addRoutes(to: $1) },
        ["GET /api/settings", "POST /api/settings"]
      ),
      ("explain", { ExplainController(dashboard: $0).addRoutes(to: $1) }, ["GET /api/overlap", "GET /api/why"]),
      (
        "traffic", { TrafficController(dashboard: $0).addRoutes(to: $1) },
        ["GET /api/traffic", "GET /api/traffic/events"]
      ),
      (
        "apply", { ApplyController(dashboard: $0).addRoutes(to: $1) },
        ["GET /api/backups", "POST /api/apply", "POST /api/apply/preview", "POST /api/restore"]
      ),
    ]
    for (name, add, routes) in expected {
      #expect(try await Self.routes(add) == routes.sorted(), "\(name)")
    }
  }

  @Test("Together the controllers are the whole API: every route once")
  func whole() async throws {
    let all = try await Self.routes { dashboard, api in
      StatusController(dashboard: dashboard).addRoutes(to: api)
      SourcesController(dashboard: dashboard).addRoutes(to: api)
      ExplainController(dashboard: dashboard).addRoutes(to: api)
      ProfilesController(dashboard: dashboard).addRoutes(to: api)
      RulesController(dashboard: dashboard).addRoutes(to: api)
      UpdateController(dashboard: dashboard).addRoutes(to: api)
      TestController(dashboard: dashboard).addRoutes(to: api)
      HistoryController(dashboard: dashboard).addRoutes(to: api)
      ApplyController(dashboard: dashboard).addRoutes(to: api)
      SettingsController(dashboard: dashboard).addRoutes(to: api)
      TrafficController(dashboard: dashboard).addRoutes(to: api)
    }
    #expect(Set(all).count == all.count)
    #expect(all.count == 40, "\(all)")
    #expect(all.allSatisfy { $0.split(separator: " ")[1].hasPrefix("/api/") })
    for route in ["POST /api/update/sources/{key}/cancel", "GET /api/history/{id}/export", "GET /api/test/events"] {
      #expect(all.contains(route), "\(route)")
    }
  }
}
