import BlockerTest
import Foundation

/// Where a dashboard blocker test is: probed so far, blocked so far, and the saved run once done.
struct TestStatus: JobStatus, Codable, Hashable {
  /// The run's phase.
  var state: JobPhase = .idle
  /// system, dns or https.
  var probe: String?
  /// What is probed ("system resolver", a DNS server's address).
  var target: String?
  /// Domains probed so far, and in all.
  var done = 0
  var total = 0
  /// Blocked so far.
  var blocked = 0
  /// The saved run's id in the history, once finished.
  var runID: Int64?
  /// The score in percent, once finished (nil: nothing conclusive).
  var percent: Double?
  /// How the run ended, or why it failed.
  var message: String?
  /// When it started and ended.
  var startedAt: Date?
  var finishedAt: Date?

  static var idle: TestStatus { TestStatus() }

  /// Moves the status on by one event of the runner.
  mutating func apply(_ event: TestEvent) {
    switch event {
    case .started(let total):
      self.total = total
    case .finished(_, let done, let total, let blocked):
      self.done = done
      self.total = total
      self.blocked = blocked
    }
  }
}
