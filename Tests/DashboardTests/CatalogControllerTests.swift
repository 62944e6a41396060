import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/api/catalog: the built-in catalog")
struct CatalogControllerTests {
  @Test("Its routes, mounted at /api/catalog")
  func routes() throws {
    #expect(try mountedRoutes(CatalogController().routes, at: "/api/catalog") == ["GET /api/catalog"])
  }

  @Test("Lists, categories and presets")
  func catalog() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let catalog = try await client.get("/api/catalog").json
        #expect((catalog?["presets"] as? [Any])?.isEmpty == false)
      }
    }
  }
}
