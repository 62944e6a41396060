extension LoadingProgress {
  /// A wait before another attempt: which attempt comes next, of how many, after how long and why.
  public struct Retry: Sendable, Hashable, Codable {
    /// The attempt about to start, counted from 1 (the first try is attempt 1).
    public var attempt: Int
    /// The most attempts there will be.
    public var maximumAttempts: Int
    /// How long until the attempt starts, when known.
    public var delay: Duration?
    /// Why the last attempt failed, when known ("timeout", "HTTP 503").
    public var reason: String?

    /// Creates a retry.
    public init(attempt: Int, of maximumAttempts: Int, after delay: Duration? = nil, reason: String? = nil) {
      self.attempt = attempt
      self.maximumAttempts = maximumAttempts
      self.delay = delay
      self.reason = reason
    }

    /// "retrying in 2.5 s (attempt 3 of 3)", or "retrying in 250 ms …" under a second; without a delay,
    /// "Retrying… (attempt 2 of 3)"; at once (another place, a mirror, is tried next: the reason says
    /// which), "attempt 2 of 3", never "retrying in 0 ms".
    public var text: String {
      guard let delay else { return "Retrying\u{2026} (attempt \(attempt) of \(maximumAttempts))" }
      if delay <= .zero { return "attempt \(attempt) of \(maximumAttempts)" }
      let seconds = delay.secondsValue
      let wait =
        seconds < 1
        ? "\(Int((seconds * 1000).rounded())) ms" : "\(Self.tenths(seconds)) s"
      return "retrying in \(wait) (attempt \(attempt) of \(maximumAttempts))"
    }

    /// Seconds with at most one decimal and no trailing zero: 2, 2.5, 12.3.
    private static func tenths(_ seconds: Double) -> String {
      let tenths = Int((seconds * 10).rounded())
      return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
  }

  /// The progress published while waiting to retry: "Retrying… (attempt 2 of 3)".
  ///
  /// Attempts are counted from 1 (the first try is attempt 1), so `attempt` is the attempt about to start.
  public static func retrying(attempt: Int, of maximumAttempts: Int) -> LoadingProgress {
    let retry = Retry(attempt: attempt, of: maximumAttempts)
    return LoadingProgress(message: retry.text, retry: retry)
  }

  /// The progress while waiting `delay` to retry after `reason`: "retrying in 2 s (attempt 2 of 3): timeout".
  public static func retrying(
    attempt: Int, of maximumAttempts: Int, after delay: Duration, reason: String?
  ) -> LoadingProgress {
    let retry = Retry(attempt: attempt, of: maximumAttempts, after: delay, reason: reason)
    return LoadingProgress(message: reason.map { "\(retry.text): \($0)" } ?? retry.text, retry: retry)
  }

  /// Whether this progress is a wait before another attempt.
  public var isRetrying: Bool { retry != nil }
}
