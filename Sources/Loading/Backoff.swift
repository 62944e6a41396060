import Foundation

/// How long a `RetryingLoader` waits after a failed attempt before trying again.
///
/// Out-of-range settings are clamped rather than rejected: negative durations count as zero and a
/// multiplier below 1 (or NaN) counts as 1.
public struct Backoff: Sendable, Hashable {
  private enum Kind: Sendable, Hashable {
    case constant(Duration)
    case exponential(initial: Duration, multiplier: Double, maximum: Duration?)
  }

  private let kind: Kind

  /// No delay between attempts.
  public static let none = Backoff(kind: .constant(.zero))

  /// The same `delay` after every failed attempt.
  public static func constant(_ delay: Duration) -> Backoff {
    Backoff(kind: .constant(max(delay, .zero)))
  }

  /// `initial` after the first failed attempt, multiplied by `multiplier` after each later one,
  /// never more than `maximum` (when given).
  public static func exponential(
    initial: Duration,
    multiplier: Double = 2,
    maximum: Duration? = nil
  ) -> Backoff {
    let multiplier = multiplier.isNaN ? 1 : max(multiplier, 1)
    return Backoff(
      kind: .exponential(
        initial: max(initial, .zero),
        multiplier: multiplier,
        maximum: maximum.map { max($0, .zero) }
      )
    )
  }

  /// The delay to wait after failed attempt number `attempt` (counted from 1) before the next one.
  public func delay(afterAttempt attempt: Int) -> Duration {
    switch kind {
    case .constant(let delay):
      return delay
    case .exponential(let initial, let multiplier, let maximum):
      guard initial > .zero else { return .zero }
      let factor = pow(multiplier, Double(max(attempt, 1) - 1))
      let limit = min(maximum ?? Self.longestDelay, Self.longestDelay)
      guard initial.secondsValue * factor < limit.secondsValue else { return limit }
      // Whole factors multiply exactly; others go through floating-point seconds.
      if factor == factor.rounded(), factor < 9e15 {
        return initial * Int64(factor)
      }
      return .seconds(initial.secondsValue * factor)
    }
  }

  /// Keeps computed delays far away from `Duration`'s overflow (this is about 31.7 million years).
  private static let longestDelay = Duration.seconds(1_000_000_000_000_000)
}
