import Dashboard
import Foundation
import Store
import TestSupport
import Testing

@Suite("Dashboard")
struct DashboardTests {
  @Test("A fresh data directory: the store is created with the default profile, and each run has its own CSRF token")
  func fresh() async throws {
    try await DashboardHarness.with { harness in
      #expect(try harness.dashboardStore().activeProfile().name == "default")
      #expect(harness.dashboard.csrfToken.count == 64)
      let other = try Dashboard(configuration: harness.dashboard.configuration)
      #expect(other.csrfToken != harness.dashboard.csrfToken)
      try await harness.routes { client async throws in
        let status = try await client.get("/api/status").json
        #expect(status?["profile"] as? String == "default")
        #expect((status?["warnings"] as? [String])?.first?.contains("no source yet") == true)
        #expect(
          (status?["subscriptions"] as? [String]) == [
            "/lists/default.hosts", "/lists/default.txt", "/lists/default.adblock",
          ])
      }
    }
  }
}
