import Locking

/// A clock whose time only moves when a test calls `advance(by:)` or `advance(to:)`.
///
/// Sleepers registered with `sleep(until:tolerance:)` stay suspended until time is advanced to (or past)
/// their deadline, so tests can drive timing code deterministically without waiting on real time.
/// A sleeping task that is cancelled is removed from the clock and throws `CancellationError`.
public final class ManualClock: Clock, Sendable {
  /// The duration type of the clock: the standard library's `Duration`.
  public typealias Duration = Swift.Duration

  /// A point in time on a `ManualClock`, stored as an offset from the clock's zero.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The distance of this instant from the clock's zero.
    public let offset: Swift.Duration

    /// Creates an instant at `offset` from the clock's zero.
    public init(offset: Swift.Duration = .zero) {
      self.offset = offset
    }

    /// Returns the instant `duration` later (or earlier, for a negative duration) than this one.
    public func advanced(by duration: Swift.Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// Returns the duration from this instant to `other`.
    public func duration(to other: Instant) -> Swift.Duration {
      other.offset - offset
    }

    /// Orders instants by their offset from zero.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// A readable form of the offset, such as `ManualClock.Instant(1.5 seconds)`.
    public var description: String {
      "ManualClock.Instant(\(offset))"
    }
  }

  private struct Sleeper {
    let deadline: Instant
    let order: UInt64
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleepers: [UInt64: Sleeper] = [:]
  }

  private let state: Locked<State>

  /// Creates a clock whose current time is `now` (zero by default).
  public init(now: Instant = Instant()) {
    state = Locked(State(now: now))
  }

  /// The current time; it changes only through `advance(by:)` and `advance(to:)`.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// The smallest meaningful step of the clock: zero, since time moves only when told to.
  public var minimumResolution: Swift.Duration {
    .zero
  }

  /// Suspends until the clock is advanced to or past `deadline`.
  ///
  /// Returns at once when the deadline has already been reached. Throws `CancellationError` when the
  /// calling task is (or becomes) cancelled; the sleeper is then removed from the clock.
  public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome { case wait, resume, cancel }
        let outcome = state.withLock { state -> Outcome in
          if deadline <= state.now { return .resume }
          if Task.isCancelled { return .cancel }
          state.sleepers[id] = Sleeper(deadline: deadline, order: id, continuation: continuation)
          return .wait
        }
        switch outcome {
        case .wait: break
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration` and wakes every sleeper whose deadline has been reached.
  ///
  /// A negative duration is ignored: time never moves backwards.
  public func advance(by duration: Swift.Duration) {
    let target = now.advanced(by: duration)
    advance(to: target)
  }

  /// Moves time forward to `instant` and wakes every sleeper whose deadline has been reached.
  ///
  /// Sleepers are woken in deadline order (then registration order). An instant in the past is ignored.
  public func advance(to instant: Instant) {
    let due = state.withLock { state -> [Sleeper] in
      guard instant > state.now else { return [] }
      state.now = instant
      let due = state.sleepers.values.filter { $0.deadline <= instant }
      for sleeper in due {
        state.sleepers.removeValue(forKey: sleeper.order)
      }
      return due.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
    }
    for sleeper in due {
      sleeper.continuation.resume()
    }
  }

  /// The number of tasks currently suspended in `sleep(until:tolerance:)`.
  public func sleepers() -> Int {
    state.withLock { $0.sleepers.count }
  }

  /// Yields until at least `count` sleepers are registered, giving up after `maxYields` yields.
  ///
  /// Returns `true` when the sleepers arrived and `false` when it gave up, so a test can
  /// `#expect(await clock.waitForSleepers(1))` and fail instead of hanging.
  @discardableResult
  public func waitForSleepers(_ count: Int, maxYields: Int = 100_000) async -> Bool {
    for _ in 0..<maxYields {
      if sleepers() >= count { return true }
      await Task.yield()
    }
    return sleepers() >= count
  }
}
