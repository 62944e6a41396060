import Foundation
import Locking
import Testing

@testable import Dashboard

@Suite("The query logs against the active profile")
struct TrafficReaderTests {
  @Test("A bad `since` is refused naming it; following no log says why")
  func errors() async throws {
    try await DashboardHarness.with { harness in
      let reader = harness.dashboard.trafficReader
      await #expect(throws: (any Error).self) { try await reader.report(since: "yesterday") }
      let failure = Locked<String?>(nil)
      await reader.follow(hit: { _ in }, failed: { message in failure.withLock { $0 = message } })
      #expect(failure.withLock { $0 }?.isEmpty == false)
    }
  }
}
