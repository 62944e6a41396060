import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/lists: the compiled lists for subscribers")
struct ListsControllerTests {
  @Test("Its routes, mounted at /lists")
  func routes() async throws {
    try await DashboardHarness.with { harness in
      let dashboard = harness.dashboard
      let routes = try mountedRoutes(ListsController(lists: dashboard.lists).routes, at: "/lists")
      #expect(routes == ["GET /lists/{file}", "HEAD /lists/{file}"].sorted())
    }
  }

  @Test("An unknown format is 404, naming the ones there are")
  func format() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let reply = try await client.get("/lists/default.xml")
        #expect(reply.status == .notFound && reply.text.contains("PROFILE.adblock"))
      }
    }
  }
}
