import Locking

/// A `Loadable` that reloads a wrapped loader after failures, waiting a backoff delay between attempts.
///
/// - Observation: the base's `state` is subscribed exactly once, just before the first load, and every
///   state the base publishes during an attempt is forwarded in order. Before the first load this loader
///   mirrors the base's state at the time it was created.
/// - Retries: when attempt `n` fails and `n < maximumAttempts`, the failure is replaced by
///   `.loading(.retrying(attempt: n + 1, of: maximumAttempts))` ("Retrying… (attempt 2 of 3)"), the loader
///   waits `backoff.delay(afterAttempt: n)` on the injected clock and loads the base again. The failure of
///   the last attempt is published as is. A base load that ends in `.idle` (cancelled) is not retried.
/// - A second `load()` while a retry cycle runs joins it and returns when it settles.
/// - `cancel()` is always forwarded to the base; a running cycle publishes `.loading` with
///   `isCancelled: true`, stops (no further attempt, even when the clock later passes the backoff
///   deadline) and ends in `.idle`. Cancelling the task that called `load()` has the same effect.
public final class RetryingLoader<Base: Loadable>: Loadable {
  /// The type of value being loaded: the base's.
  public typealias Value = Base.Value

  private struct Cycle {
    let id: UInt64
    var attempt = 1
    var isCancelled = false
    let completion = Latch()
    let cancellation = Latch()
  }

  private enum Phase {
    case idle
    case running(Cycle)
  }

  private enum Action {
    case drive(Cycle)
    case join(Latch)
    case awaitCancelledCycle(Latch)
  }

  private struct State {
    var phase: Phase = .idle
    var nextCycleID: UInt64 = 0
  }

  /// The wrapped loader.
  public let base: Base
  /// The total number of attempts per load, counting the first one (at least 1).
  public let maximumAttempts: Int
  /// The delay policy between attempts.
  public let backoff: Backoff

  private let time: TimeSource
  private let relay: StateRelay<LoadingState<Value>>
  private let observer = StateObserver<Value>()
  private let storage = Locked(State())

  /// Wraps `base`, trying each load up to `maximumAttempts` times (clamped to at least 1), waiting
  /// `backoff` delays measured on `clock` between attempts.
  public init(
    _ base: Base,
    maximumAttempts: Int = 3,
    backoff: Backoff = .exponential(initial: .seconds(1)),
    clock: some Clock<Duration> = ContinuousClock()
  ) {
    self.base = base
    self.maximumAttempts = max(1, maximumAttempts)
    self.backoff = backoff
    self.time = TimeSource(clock)
    self.relay = StateRelay(base.currentState)
  }

  /// A new stream that replays the current state, then yields every change.
  public var state: AsyncStream<LoadingState<Value>> {
    relay.stream
  }

  /// The latest state.
  public var currentState: LoadingState<Value> {
    relay.currentValue
  }

  /// The number of `load()` calls currently joined to the running load (for tests and diagnostics).
  var joinedCallers: Int {
    storage.withLock { state in
      guard case .running(let cycle) = state.phase else { return 0 }
      return cycle.completion.waiterCount
    }
  }

  /// Loads the base, retrying failures, and returns once the final attempt has settled.
  public func load() async {
    await startObserving()
    while true {
      let action = storage.withLock { state -> Action in
        switch state.phase {
        case .running(let cycle) where !cycle.isCancelled:
          return .join(cycle.completion)
        case .running(let cycle):
          return .awaitCancelledCycle(cycle.completion)
        case .idle:
          state.nextCycleID += 1
          let cycle = Cycle(id: state.nextCycleID)
          state.phase = .running(cycle)
          relay.update(.loading(LoadingProgress()))
          return .drive(cycle)
        }
      }
      switch action {
      case .drive(let cycle):
        await drive(cycle)
        return
      case .join(let completion):
        await completion.wait()
        return
      case .awaitCancelledCycle(let completion):
        await completion.wait()
        if Task.isCancelled { return }
      }
    }
  }

  /// Forwards `cancel()` to the base and stops a running retry cycle, which then ends in `.idle`.
  public func cancel() {
    let cancellation = storage.withLock { state -> Latch? in
      guard case .running(var cycle) = state.phase, !cycle.isCancelled else { return nil }
      cycle.isCancelled = true
      state.phase = .running(cycle)
      let progress = relay.currentValue.progress ?? LoadingProgress()
      relay.update(.loading(progress.markingCancelled()))
      return cycle.cancellation
    }
    base.cancel()
    cancellation?.signal()
  }

  private func startObserving() async {
    await observer.start(
      subscribe: { base.state },
      onState: { [weak self] state in self?.forward(state) }
    )
  }

  private func drive(_ cycle: Cycle) async {
    var attempt = 1
    while true {
      let settledBefore = observer.settledCount
      await base.load()
      let settled = await observer.waitForSettled(after: settledBefore)
      guard !Task.isCancelled, !isCancelled(cycle), case .failure = settled, attempt < maximumAttempts else {
        break
      }
      let delay = backoff.delay(afterAttempt: attempt)
      let time = self.time
      let slept = await cycle.cancellation.runCancellable {
        (try? await time.sleep(for: delay)) != nil
      }
      attempt += 1
      let proceed = storage.withLock { state -> Bool in
        guard slept, !Task.isCancelled, case .running(var current) = state.phase, current.id == cycle.id,
          !current.isCancelled
        else { return false }
        current.attempt = attempt
        state.phase = .running(current)
        return true
      }
      guard proceed else { break }
    }
    let callerCancelled = Task.isCancelled
    storage.withLock { state in
      guard case .running(let current) = state.phase, current.id == cycle.id else { return }
      state.phase = .idle
      if current.isCancelled || callerCancelled {
        relay.update(.idle)
      }
    }
    cycle.completion.signal()
  }

  private func isCancelled(_ cycle: Cycle) -> Bool {
    storage.withLock { state in
      guard case .running(let current) = state.phase, current.id == cycle.id else { return true }
      return current.isCancelled
    }
  }

  /// Publishes a state received from the base, replacing a failure that will be retried.
  private func forward(_ baseState: LoadingState<Value>) {
    storage.withLock { state in
      switch state.phase {
      case .idle:
        relay.update(baseState)
      case .running(let cycle) where cycle.isCancelled:
        break
      case .running(let cycle):
        if case .failure = baseState, cycle.attempt < maximumAttempts {
          relay.update(.loading(.retrying(attempt: cycle.attempt + 1, of: maximumAttempts)))
        } else {
          relay.update(baseState)
        }
      }
    }
  }
}
