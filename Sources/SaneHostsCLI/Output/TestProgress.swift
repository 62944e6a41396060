import BlockerTest
import Foundation
import Locking

/// Live progress of a blocker test on a terminal: done/total, blocked so far and the current domain,
/// redrawn on one line of standard error (at most ten times a second). Silent when not live.
final class TestProgress: Sendable {
  private let live: Bool
  private let width: Int
  private let write: @Sendable (String) -> Void
  private let state = Locked<(shown: ContinuousClock.Instant?, drawn: Bool)>((nil, false))

  init(live: Bool, width: Int, write: @escaping @Sendable (String) -> Void = { Terminal.writeError($0) }) {
    self.live = live
    self.width = width
    self.write = write
  }

  /// Takes one event of the run.
  func handle(_ event: TestEvent) {
    guard live, case .finished(let result, let done, let total, let blocked) = event else { return }
    let now = ContinuousClock.now
    let due = state.withLock { state -> Bool in
      if done < total, let shown = state.shown, now - shown < .milliseconds(100) { return false }
      state.shown = now
      state.drawn = true
      return true
    }
    guard due else { return }
    write(
      "\r\u{1B}[2K" + Self.line(done: done, total: total, blocked: blocked, current: result.hostname, width: width))
  }

  /// Clears the progress line.
  func finish() {
    guard live, state.withLock({ $0.drawn }) else { return }
    write("\r\u{1B}[2K")
  }

  /// `[ 42/128] 30 blocked  ads.example`, cut to the width.
  static func line(done: Int, total: Int, blocked: Int, current: String, width: Int) -> String {
    let digits = String(total).count
    let count = String(repeating: " ", count: max(0, digits - String(done).count)) + "\(done)"
    let text = "[\(count)/\(total)] \(blocked) blocked  \(current)"
    return text.count > width - 1 ? String(text.prefix(max(10, width - 1))) : text
  }
}
