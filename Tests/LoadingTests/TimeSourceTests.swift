import TestSupport
import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct TimeSourceTests {
  @Test func measuresTimeFromWhenItWasCreated() {
    let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(100)))
    let time = TimeSource(clock)
    #expect(time.elapsed() == .zero)
    clock.advance(by: .seconds(3))
    #expect(time.elapsed() == .seconds(3))
  }

  @Test func sleepsUntilAnElapsedDeadline() async throws {
    let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(100)))
    let time = TimeSource(clock)
    let sleeper = Task { try await time.sleep(until: .seconds(2)) }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .milliseconds(1999))
    #expect(clock.sleepers() == 1)
    clock.advance(by: .milliseconds(1))
    try await sleeper.cancellableValue
  }

  @Test func sleepsForADurationFromNow() async throws {
    let clock = ManualClock()
    let time = TimeSource(clock)
    clock.advance(by: .seconds(5))
    let sleeper = Task { try await time.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .milliseconds(999))
    #expect(clock.sleepers() == 1)
    clock.advance(by: .milliseconds(1))
    try await sleeper.cancellableValue
  }

  @Test func sleepingThrowsWhenCancelled() async {
    let clock = ManualClock()
    let time = TimeSource(clock)
    let sleeper = Task { try await time.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.cancellableValue }
  }
}
