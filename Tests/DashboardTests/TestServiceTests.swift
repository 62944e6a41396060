import Foundation
import Loading
import Testing

@testable import Dashboard

@Suite("The blocker-test job")
struct TestServiceTests {
  @Test("The dns probe needs a server, and a real address; a cancelled run says what was done")
  func start() async throws {
    try await DashboardHarness.with { harness in
      let tests = harness.dashboard.testService
      await #expect(throws: DashboardError.self) { try await tests.start(TestRequest(probe: "dns")) }
      await #expect(throws: DashboardError.self) {
        try await tests.start(TestRequest(probe: "dns", resolver: "not an address"))
      }
      #expect(tests.relay.currentValue.state == .idle)
      #expect(await tests.cancel() == false)
    }
    var status = TestStatus(state: .running, total: 10)
    status.done = 4
    status.cancelled()
    #expect(status.state == .cancelled && status.message == "Cancelled after 4 of 10 domains; nothing was saved.")
  }
}
