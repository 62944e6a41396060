import Locking

/// A `Loadable` that reloads a wrapped loader after failures, waiting a backoff delay between attempts.
///
/// - Observation: the base's `state` is subscribed exactly once, just before the first load, and every
///   state the base publishes during an attempt is forwarded in order. Before the first load this loader
///   mirrors the base's state at the time it was created.
/// - Retries: when attempt `n` fails, `n < maximumAttempts` and `shouldRetry` accepts the error, the failure is replaced by
///   `.loading(.retrying(attempt: n + 1, of: maximumAttempts))` ("Retrying… (attempt 2 of 3)"), the loader
///   waits `backoff.delay(afterAttempt: n)` on the injected clock and loads the base again. The failure of
///   the last attempt is published as is. A base load that ends in `.idle` (cancelled) is not retried.
/// - A second `load()` while a retry cycle runs joins it and returns when it settles.
/// - `cancel()` is always forwarded to the base; a running cycle publishes `.loading` with
///   `isCancelled: true`, stops (no further attempt, even when the clock later passes the backoff
///   deadline) and ends in `.idle`. Cancelling the task that called `load()` has the same effect.
public final class RetryingLoader<Base: Loadable>: Loadable, RelayPublishing {
  /// The type of value being loaded: the base's.
  public typealias Value = Base.Value

  /// The wrapped loader.
  public let base: Base
  /// The total number of attempts per load, counting the first one (at least 1).
  public let maximumAttempts: Int
  /// The delay policy between attempts.
  public let backoff: Backoff
  /// Whether a failure is worth another attempt (by default every one is).
  public let shouldRetry: @Sendable (any Error) -> Bool

  private let time: TimeSource
  private let flight: SingleFlight<Value>
  private let observer = StateObserver<Value>()

  /// Wraps `base`, trying each load up to `maximumAttempts` times (clamped to at least 1), waiting
  /// `backoff` delays measured on `clock` between attempts; a failure for which `shouldRetry` is false
  /// is published at once, as the last attempt's would be.
  public init(
    _ base: Base,
    maximumAttempts: Int = 3,
    backoff: Backoff = .exponential(initial: .seconds(1)),
    clock: some Clock<Duration> = ContinuousClock(),
    shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true }
  ) {
    self.base = base
    self.maximumAttempts = max(1, maximumAttempts)
    self.backoff = backoff
    self.shouldRetry = shouldRetry
    self.time = TimeSource(clock)
    self.flight = SingleFlight(initial: base.currentState)
  }

  var relay: StateRelay<LoadingState<Value>> { flight.relay }

  /// The number of `load()` calls currently joined to the running load (for tests and diagnostics).
  var joinedCallers: Int { flight.joinedCallers }

  /// Loads the base, retrying failures, and returns once the final attempt has settled.
  public func load() async {
    await observer.start(
      subscribe: { base.state },
      onState: { [weak self] state in self?.forward(state) }
    )
    await flight.load { cycle in await drive(cycle) }
  }

  /// Forwards `cancel()` to the base and stops a running retry cycle, which then ends in `.idle`.
  public func cancel() {
    flight.cancel()
    base.cancel()
  }

  private func drive(_ cycle: SingleFlight<Value>.Run) async {
    var attempt = 1
    while true {
      let settledBefore = observer.settledCount
      await base.load()
      let settled = await observer.waitForSettled(after: settledBefore)
      guard !Task.isCancelled, !flight.isCancelled(cycle), case .failure(let failure) = settled,
        attempt < maximumAttempts, shouldRetry(failure.error)
      else {
        break
      }
      let delay = backoff.delay(afterAttempt: attempt)
      let time = self.time
      let slept = await cycle.cancellation.runCancellable {
        (try? await time.sleep(for: delay)) != nil
      }
      attempt += 1
      let next = attempt
      let proceed = flight.withCurrent(of: cycle) { current -> Bool in
        guard slept, !Task.isCancelled, var running = current, !running.isCancelled else { return false }
        running.attempt = next
        current = running
        return true
      }
      guard proceed else { break }
    }
    let callerCancelled = Task.isCancelled
    // A cancelled cycle ends in `.idle`; otherwise the last attempt's state is already published.
    flight.settle(cycle) { cancelled in cancelled || callerCancelled ? .idle : nil }
  }

  /// Publishes a state received from the base, replacing a failure that will be retried.
  private func forward(_ baseState: LoadingState<Value>) {
    flight.withCurrent(of: nil) { current in
      switch current {
      case .none:
        flight.relay.update(baseState)
      case .some(let running) where running.isCancelled:
        break
      case .some(let running):
        if case .failure(let failure) = baseState, running.attempt < maximumAttempts, shouldRetry(failure.error) {
          flight.relay.update(.loading(.retrying(attempt: running.attempt + 1, of: maximumAttempts)))
        } else {
          flight.relay.update(baseState)
        }
      }
    }
  }
}
