import Locking

/// A one-shot signal that any number of tasks can wait for.
///
/// Once `signal()` has been called the latch stays open: every current and future `wait()` returns.
/// A waiting task that is cancelled stops waiting (its continuation is resumed, never leaked).
public final class Latch: Sendable {
  private enum Phase {
    case closed(waiters: [UInt64: CheckedContinuation<Void, Never>])
    case open
  }

  private struct State {
    var phase: Phase = .closed(waiters: [:])
    var nextID: UInt64 = 0
  }

  private let state = Locked(State())

  /// Creates a closed latch.
  public init() {}

  /// Whether `signal()` has been called.
  public var isSignalled: Bool {
    state.withLock { state in
      if case .open = state.phase { return true }
      return false
    }
  }

  /// The number of tasks currently suspended in `wait()`.
  public var waiterCount: Int {
    state.withLock { state in
      if case .closed(let waiters) = state.phase { return waiters.count }
      return 0
    }
  }

  /// Opens the latch and resumes every waiting task; later calls do nothing.
  public func signal() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard case .closed(let waiters) = state.phase else { return [] }
      state.phase = .open
      return Array(waiters.values)
    }
    for waiter in waiters {
      waiter.resume()
    }
  }

  /// Suspends until the latch is signalled or the calling task is cancelled.
  public func wait() async {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let mustWait = state.withLock { state -> Bool in
          guard case .closed(var waiters) = state.phase, !Task.isCancelled else { return false }
          waiters[id] = continuation
          state.phase = .closed(waiters: waiters)
          return true
        }
        if !mustWait { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard case .closed(var waiters) = state.phase else { return nil }
        let waiter = waiters.removeValue(forKey: id)
        state.phase = .closed(waiters: waiters)
        return waiter
      }
      waiter?.resume()
    }
  }
}
