import Loading
import Testing

@Suite
struct BackoffTests {
  @Test func noneNeverWaits() {
    #expect(Backoff.none.delay(afterAttempt: 1) == .zero)
    #expect(Backoff.none.delay(afterAttempt: 9) == .zero)
  }

  @Test func constantWaitsTheSameEveryTime() {
    let backoff = Backoff.constant(.milliseconds(250))
    #expect((1...5).map(backoff.delay(afterAttempt:)) == Array(repeating: .milliseconds(250), count: 5))
  }

  @Test func exponentialMultipliesEachTime() {
    let backoff = Backoff.exponential(initial: .milliseconds(100))
    #expect(
      (1...4).map(backoff.delay(afterAttempt:)) == [
        .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
      ]
    )
  }

  @Test func exponentialSupportsFractionalMultipliers() {
    let backoff = Backoff.exponential(initial: .seconds(2), multiplier: 1.5)
    #expect(backoff.delay(afterAttempt: 2) == .seconds(3))
    #expect(backoff.delay(afterAttempt: 3) == .milliseconds(4500))
  }

  @Test func exponentialStopsAtTheMaximum() {
    let backoff = Backoff.exponential(initial: .seconds(1), maximum: .seconds(5))
    #expect(
      (1...5).map(backoff.delay(afterAttempt:)) == [
        .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5),
      ])
  }

  @Test func hugeAttemptNumbersDoNotOverflow() {
    let backoff = Backoff.exponential(initial: .seconds(1))
    #expect(backoff.delay(afterAttempt: 10_000) == .seconds(1_000_000_000_000_000))
    #expect(backoff.delay(afterAttempt: Int.max) > .seconds(1_000_000))
  }

  @Test func outOfRangeSettingsAreClamped() {
    #expect(Backoff.constant(.seconds(-3)).delay(afterAttempt: 1) == .zero)
    #expect(Backoff.exponential(initial: .seconds(-1)).delay(afterAttempt: 3) == .zero)
    #expect(Backoff.exponential(initial: .zero).delay(afterAttempt: Int.max) == .zero)
    #expect(Backoff.exponential(initial: .seconds(1), multiplier: 0.5).delay(afterAttempt: 3) == .seconds(1))
    #expect(Backoff.exponential(initial: .seconds(1), multiplier: .nan).delay(afterAttempt: 3) == .seconds(1))
    #expect(Backoff.exponential(initial: .seconds(1)).delay(afterAttempt: 0) == .seconds(1))
  }

  @Test func equalPoliciesAreEqual() {
    #expect(Backoff.constant(.seconds(1)) == .constant(.seconds(1)))
    #expect(Backoff.constant(.seconds(1)) != .exponential(initial: .seconds(1)))
  }
}
