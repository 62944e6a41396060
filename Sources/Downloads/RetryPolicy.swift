/// How many times a transient failure is retried, and how long to wait between attempts.
public struct RetryPolicy: Sendable, Hashable {
  /// Attempts in all, the first included; 1 disables retries.
  public var maximumAttempts: Int
  /// The wait before the second attempt.
  public var initialDelay: Duration
  /// The factor by which the wait grows after each attempt.
  public var multiplier: Double
  /// The longest wait, also the most a server's `Retry-After` can ask for.
  public var maximumDelay: Duration

  /// Creates a policy; by default 3 attempts, waiting 1 s then 2 s.
  public init(
    maximumAttempts: Int = 3, initialDelay: Duration = .seconds(1), multiplier: Double = 2,
    maximumDelay: Duration = .seconds(30)
  ) {
    self.maximumAttempts = max(1, maximumAttempts)
    self.initialDelay = initialDelay
    self.multiplier = max(1, multiplier)
    self.maximumDelay = maximumDelay
  }

  /// The wait after failed attempt `attempt` (counted from 1), honouring a server's `Retry-After` if sane.
  public func delay(after attempt: Int, retryAfter: Duration? = nil) -> Duration {
    if let retryAfter, retryAfter >= .zero, retryAfter <= maximumDelay { return retryAfter }
    let factor = pow(multiplier, Double(max(0, attempt - 1)))
    let delay = initialDelay * factor
    return min(delay, maximumDelay)
  }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
  var result = 1.0
  for _ in 0..<Int(exponent) { result *= base }
  return result
}
