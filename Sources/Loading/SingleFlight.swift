import Locking

/// One load at a time, for the loaders that run one (`TaskLoader`, `RetryingLoader`): it starts a run or
/// joins the running one, marks a run cancelled, and publishes the loader's states.
///
/// - `load(_:)` starts a run (publishing `.loading`) and hands it to the loader's body; a second call
///   while it runs joins it and returns when it settles; a call after `cancel()`, while the cancelled run
///   still winds down, waits for it, then starts a fresh run (or returns if its own task is cancelled).
/// - `cancel()` marks the running run cancelled, publishes `.loading` with `isCancelled: true` at once
///   (keeping the last message, percent and retry) and signals the run's cancellation latch.
/// - The body ends its run with `settle(_:_:)`, which publishes the final state (or none) only if the run
///   is still the current one.
final class SingleFlight<Value: Sendable>: Sendable {
  /// One run: the latch that cancels it, and the one its joiners wait on.
  struct Run: Sendable {
    /// Counts runs, so a late call about an old run is ignored.
    let id: UInt64
    /// Signalled by `cancel()`.
    let cancellation = Latch()
    /// Signalled when the run has settled; joiners wait on it.
    let completion = Latch()
  }

  /// The running run's state, which the loaders read and change under the lock.
  struct Current {
    /// The run.
    let run: Run
    /// Whether `cancel()` was called during it.
    var isCancelled = false
    /// The attempt in progress, counted from 1 (a retrying loader counts it up).
    var attempt = 1
  }

  private enum Action {
    case start(Run)
    case join(Latch)
    case awaitCancelled(Latch)
  }

  private struct State {
    var current: Current?
    var nextID: UInt64 = 0
  }

  /// Where the loader's states are published.
  let relay: StateRelay<LoadingState<Value>>
  private let storage = Locked(State())

  /// Publishes through a new relay that starts at `initial`.
  init(initial: LoadingState<Value>) {
    relay = StateRelay(initial)
  }

  /// The number of `load()` calls joined to the running run.
  var joinedCallers: Int {
    storage.withLock { $0.current?.run.completion.waiterCount ?? 0 }
  }

  /// Starts a run and hands it to `body`, or joins the running one; returns once the run has settled.
  func load(_ body: (Run) async -> Void) async {
    while true {
      let action = storage.withLock { state -> Action in
        switch state.current {
        case .some(let current) where !current.isCancelled:
          return .join(current.run.completion)
        case .some(let current):
          return .awaitCancelled(current.run.completion)
        case .none:
          state.nextID += 1
          let run = Run(id: state.nextID)
          state.current = Current(run: run)
          relay.update(.loading(LoadingProgress()))
          return .start(run)
        }
      }
      switch action {
      case .start(let run):
        await body(run)
        return
      case .join(let completion):
        await completion.wait()
        return
      case .awaitCancelled(let completion):
        await completion.wait()
        if Task.isCancelled { return }
      }
    }
  }

  /// Marks the running run cancelled and publishes so; false when none runs or it was already cancelled.
  @discardableResult
  func cancel() -> Bool {
    let cancellation = storage.withLock { state -> Latch? in
      guard var current = state.current, !current.isCancelled else { return nil }
      current.isCancelled = true
      state.current = current
      let progress = relay.currentValue.progress ?? LoadingProgress()
      relay.update(.loading(progress.markingCancelled()))
      return current.run.cancellation
    }
    cancellation?.signal()
    return cancellation != nil
  }

  /// Runs `body` under the lock with the current run's state when `run` is it (nil otherwise), letting
  /// it publish through `relay` in order with every other change.
  func withCurrent<R>(of run: Run?, _ body: (inout Current?) -> R) -> R {
    storage.withLock { state in
      guard let run else { return body(&state.current) }
      guard state.current?.run.id == run.id else {
        var none: Current? = nil
        return body(&none)
      }
      return body(&state.current)
    }
  }

  /// Whether `run` has been cancelled (or is no longer the current run).
  func isCancelled(_ run: Run) -> Bool {
    withCurrent(of: run) { $0?.isCancelled ?? true }
  }

  /// Ends `run`: when it is still the current run, publishes what `final` returns for it (given whether it
  /// was cancelled; nil publishes nothing), then wakes its joiners.
  func settle(_ run: Run, _ final: (_ cancelled: Bool) -> LoadingState<Value>?) {
    storage.withLock { state in
      guard let current = state.current, current.run.id == run.id else { return }
      state.current = nil
      if let settled = final(current.isCancelled) { relay.update(settled) }
    }
    run.completion.signal()
  }
}

/// A loader whose states go through a relay: its `state` and `currentState` are the relay's.
protocol RelayPublishing: Loadable {
  /// Where its states are published.
  var relay: StateRelay<LoadingState<Value>> { get }
}

extension RelayPublishing {
  /// A new stream that replays the current state, then yields every change.
  public var state: AsyncStream<LoadingState<Value>> { relay.stream }

  /// The latest state.
  public var currentState: LoadingState<Value> { relay.currentValue }
}
