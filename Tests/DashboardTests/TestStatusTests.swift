import BlockerTest
import Testing

@testable import Dashboard

@Suite("Test status")
struct TestStatusTests {
  @Test("Counts follow the runner's events; a cancelled run says how far it got")
  func events() {
    var status = TestStatus(state: .running)
    status.apply(.started(total: 128))
    #expect(status.total == 128 && status.done == 0)
    let result = DomainResult(
      domain: TestDomain(hostname: "a.website", category: "Ads", provider: "P"), verdict: Verdict(.blocked, "NXDOMAIN"),
      milliseconds: 1)
    status.apply(.finished(result, done: 5, total: 128, blocked: 4))
    #expect(status.done == 5 && status.blocked == 4)
    status.cancelled()
    #expect(status.state == .cancelled)
    #expect(status.message == "Cancelled after 5 of 128 domains; nothing was saved.")
  }
}
