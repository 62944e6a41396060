/// A type-erased view of a `Clock` that measures time as the duration elapsed since it was created.
///
/// Loaders store one of these instead of being generic over their clock, so any
/// `Clock<Duration>` (a real clock in production, a manual one in tests) can drive them.
struct TimeSource: Sendable {
  private let elapsedTime: @Sendable () -> Duration
  private let sleepUntil: @Sendable (Duration) async throws -> Void

  /// Wraps `clock`; its current instant becomes time zero.
  init<C: Clock>(_ clock: C) where C.Duration == Duration {
    let origin = clock.now
    elapsedTime = { origin.duration(to: clock.now) }
    sleepUntil = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
  }

  /// The time elapsed on the clock since this time source was created.
  func elapsed() -> Duration {
    elapsedTime()
  }

  /// Sleeps until `elapsed()` reaches `deadline`; throws `CancellationError` when cancelled.
  func sleep(until deadline: Duration) async throws {
    try await sleepUntil(deadline)
  }

  /// Sleeps for `duration` from now; throws `CancellationError` when cancelled.
  func sleep(for duration: Duration) async throws {
    try await sleepUntil(elapsed() + duration)
  }
}
