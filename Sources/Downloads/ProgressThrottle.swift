/// Decides which progress updates are worth sending: at most one per interval, and always the last.
struct ProgressThrottle<C: Clock> where C.Duration == Duration {
  private let clock: C
  private let interval: Duration
  private var lastSent: C.Instant?
  private var lastSentBytes: Int64 = -1

  init(clock: C, interval: Duration) {
    self.clock = clock
    self.interval = interval
  }

  /// Whether an update with this count should be sent now; records it if so.
  mutating func shouldSend(_ bytes: Int64) -> Bool {
    let now = clock.now
    if let lastSent, lastSent.duration(to: now) < interval { return false }
    lastSent = now
    lastSentBytes = bytes
    return true
  }

  /// Whether the final count still has to be sent (it differs from the last one sent).
  mutating func needsFinal(_ bytes: Int64) -> Bool {
    guard bytes != lastSentBytes else { return false }
    lastSentBytes = bytes
    lastSent = clock.now
    return true
  }
}
