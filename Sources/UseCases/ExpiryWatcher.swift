import Foundation
import Store

/// Ends allow rules on time while a long-running process (the dashboard) runs: it sleeps until the next
/// rule's end, at most `longestWait` (a rule added meanwhile, by another process too, is seen within
/// it), then runs `RuleExpiry`.
///
/// The clock it sleeps on and the wall time it compares ends with are given, so tests move time by hand.
public actor ExpiryWatcher<C: Clock> where C.Duration == Duration {
  /// What the watcher is doing.
  public enum State: Sendable, Hashable {
    /// Not started yet.
    case idle
    /// Sleeping until the given wall time (the next end, or the next look when none is near).
    case waiting(until: Date)
    /// Removing ended rules and applying again.
    case expiring
    /// Stopped: its task was cancelled.
    case stopped
  }

  /// What it is doing now.
  public private(set) var state: State = .idle

  let expiry: RuleExpiry
  let clock: C
  let now: @Sendable () -> Date
  let longestWait: Duration
  let report: @Sendable (RuleExpiry.Outcome) async -> Void

  /// A watcher: `now` is the wall time (`Date()` in production), `report` gets each run that did something.
  public init(
    expiry: RuleExpiry, clock: C, now: @escaping @Sendable () -> Date = { Date() },
    longestWait: Duration = .seconds(60), report: @escaping @Sendable (RuleExpiry.Outcome) async -> Void = { _ in }
  ) {
    self.expiry = expiry
    self.clock = clock
    self.now = now
    self.longestWait = longestWait
    self.report = report
  }

  /// Runs until its task is cancelled; a store that cannot be read is tried again at the next look.
  public func run() async {
    while !Task.isCancelled {
      state = .expiring
      if let outcome = try? await expiry.run(now: now()), !outcome.ended.isEmpty || outcome.reapply != nil {
        await report(outcome)
      }
      let wait = nextWait()
      state = .waiting(until: now().addingTimeInterval(wait / .seconds(1)))
      do {
        try await clock.sleep(until: clock.now.advanced(by: wait), tolerance: nil)
      } catch {
        break
      }
    }
    state = .stopped
  }

  /// How long to sleep: until the next end or a pending reapply's next try, at most `longestWait`.
  func nextWait() -> Duration {
    let next = ([try? expiry.store.nextRuleEnd()] + PendingReapply.all(in: expiry.store.directory).map(\.nextTry))
      .compactMap { $0 }.min()
    guard let next else { return longestWait }
    let seconds = max(0, next.timeIntervalSince(now()))
    return min(longestWait, .milliseconds(Int64((seconds * 1000).rounded(.up))))
  }
}
