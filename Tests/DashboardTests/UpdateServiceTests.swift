import Foundation
import Loading
import Testing

@testable import Dashboard

@Suite("The update job")
struct UpdateServiceTests {
  @Test("Cancelled: every source not finished says so, and keeps its previous copy")
  func cancelled() {
    var status = UpdateStatus(state: .running)
    status.sources = [
      .init(key: "done", phase: "updated", detail: "updated: 1 name", fraction: 1),
      .init(key: "slow", phase: "downloading", detail: "downloading", fraction: 0.5),
    ]
    status.cancelled()
    #expect(status.state == .cancelled && status.finishedAt != nil)
    #expect(status.sources.map(\.phase) == ["updated", "cancelled"])
    #expect(status.message == "Cancelled: every source keeps its previous copy.")
  }

  @Test("A source not in the run cannot be cancelled (404); with no run nothing is")
  func cancelSource() async throws {
    try await DashboardHarness.with { harness in
      let updates = harness.dashboard.updateService
      #expect(throws: DashboardError.self) { try updates.cancel(source: "nope") }
      var status = UpdateStatus(state: .finished)
      status.sources = [.init(key: "ads", phase: "updated", detail: "", fraction: 1)]
      updates.relay.update(status)
      #expect((try? updates.cancel(source: "ads")) == false)
      #expect(await updates.cancel() == false)
    }
  }
}
