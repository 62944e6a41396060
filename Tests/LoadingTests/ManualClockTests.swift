import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5)))
struct ManualClockTests {
  @Test func startsAtZeroAndAdvancesByDurations() {
    let clock = ManualClock()
    #expect(clock.now == ManualClock.Instant())
    clock.advance(by: .seconds(2))
    clock.advance(by: .milliseconds(500))
    #expect(clock.now.offset == .milliseconds(2500))
    #expect(clock.minimumResolution == .zero)
  }

  @Test func advanceToMovesForwardButNeverBackwards() {
    let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
    clock.advance(to: ManualClock.Instant(offset: .seconds(12)))
    #expect(clock.now.offset == .seconds(12))
    clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
    clock.advance(by: .seconds(-5))
    #expect(clock.now.offset == .seconds(12))
  }

  @Test func instantArithmeticAndOrdering() {
    let start = ManualClock.Instant(offset: .seconds(1))
    let later = start.advanced(by: .milliseconds(1500))
    #expect(later.offset == .milliseconds(2500))
    #expect(start.duration(to: later) == .milliseconds(1500))
    #expect(later.duration(to: start) == .milliseconds(-1500))
    #expect(start < later)
    #expect(!(later < start))
    #expect(later.description == "ManualClock.Instant(2.5 seconds)")
  }

  @Test func sleepResumesOnlyOnceTheDeadlineIsReached() async throws {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(10))) }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(9))
    #expect(clock.sleepers() == 1)
    clock.advance(by: .seconds(1))
    #expect(clock.sleepers() == 0)
    try await sleeper.cancellableValue
  }

  @Test func sleepForUsesTheClocksTime() async throws {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(3)) }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(3))
    try await sleeper.cancellableValue
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func advanceWakesDueSleepersAndKeepsLaterOnes() async throws {
    let clock = ManualClock()
    let early = Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1))) }
    let middle = Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(2))) }
    let late = Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(3))) }
    #expect(await clock.waitForSleepers(3))
    clock.advance(to: ManualClock.Instant(offset: .seconds(2)))
    #expect(clock.sleepers() == 1)
    try await early.cancellableValue
    try await middle.cancellableValue
    clock.advance(by: .seconds(1))
    try await late.cancellableValue
  }

  @Test func sleepUntilAPastDeadlineReturnsAtOnce() async throws {
    let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(5)))
    try await clock.sleep(until: ManualClock.Instant(offset: .seconds(5)))
    try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1)))
    #expect(clock.sleepers() == 0)
  }

  @Test func cancellingASleeperThrowsAndRemovesIt() async {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    sleeper.cancel()
    #expect(await eventually { clock.sleepers() == 0 })
    // Releases a sleeper that ignored its cancellation, so a broken clock fails here instead of hanging.
    clock.advance(by: .seconds(1))
    await #expect(throws: CancellationError.self) { try await sleeper.cancellableValue }
  }

  @Test func sleepingInACancelledTaskThrowsWithoutRegistering() async {
    let clock = ManualClock()
    let gate = Gate()
    let sleeper = Task {
      await gate.wait()
      try await clock.sleep(for: .seconds(1))
    }
    sleeper.cancel()
    gate.open()
    await #expect(throws: CancellationError.self) { try await sleeper.cancellableValue }
    #expect(clock.sleepers() == 0)
  }

  @Test func waitForSleepersGivesUpWhenNobodySleeps() async {
    let clock = ManualClock()
    #expect(await clock.waitForSleepers(1, maxYields: 10) == false)
    #expect(await clock.waitForSleepers(0))
  }
}
