import Locking

/// A `Loadable` that coalesces rapid `load()` calls into one load of a wrapped loader.
///
/// - Debouncing: a `load()` schedules a base load `interval` after the call (measured on the injected
///   clock); each further `load()` before that moment pushes it back to `interval` after the newest call.
///   Once `interval` has passed without calls, the base loads once. Every coalesced caller returns when
///   that load has settled. A `load()` arriving while the base is already loading schedules a new
///   debounced load.
/// - Observation: the base's `state` is subscribed exactly once, just before the first load, and every
///   state it publishes afterwards is forwarded unchanged; waiting out the interval publishes nothing.
///   Before the first load this loader mirrors the base's state at the time it was created.
/// - `cancel()` drops a pending debounced load (its callers return at once, the base is not loaded)
///   and is always forwarded to the base. Cancelling the task that is waiting out the interval drops
///   the pending load the same way (without cancelling the base).
public final class DebouncingLoader<Base: Loadable>: Loadable {
  /// The type of value being loaded: the base's.
  public typealias Value = Base.Value

  private struct Batch {
    let id: UInt64
    var deadline: Duration
    let completion = Latch()
    let cancellation = Latch()
  }

  private enum Phase {
    case quiet
    case pending(Batch)
  }

  private enum Role {
    case drive(Batch)
    case join(Latch)
  }

  private enum Decision {
    case sleep(until: Duration)
    case fire
    case abandon
  }

  private struct State {
    var phase: Phase = .quiet
    var nextBatchID: UInt64 = 0
    var waitingCallers = 0
  }

  /// The wrapped loader.
  public let base: Base
  /// How long `load()` calls must stop before the base loads (never negative).
  public let interval: Duration

  private let time: TimeSource
  private let relay: StateRelay<LoadingState<Value>>
  private let observer = StateObserver<Value>()
  private let storage = Locked(State())

  /// Wraps `base`, loading it once `interval` (negative counts as zero) has passed on `clock`
  /// without further `load()` calls.
  public init(_ base: Base, interval: Duration, clock: some Clock<Duration> = ContinuousClock()) {
    self.base = base
    self.interval = max(interval, .zero)
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

  /// The number of `load()` calls currently waiting for a debounced load (for tests and diagnostics).
  var waitingCallers: Int {
    storage.withLock { $0.waitingCallers }
  }

  /// Requests a load; returns once the debounced base load it was coalesced into has settled
  /// (or at once if that load was cancelled before it started).
  public func load() async {
    await observer.start(
      subscribe: { base.state },
      onState: { [weak self] state in self?.relay.update(state) }
    )
    let role = storage.withLock { state -> Role in
      state.waitingCallers += 1
      let deadline = time.elapsed() + interval
      switch state.phase {
      case .quiet:
        state.nextBatchID += 1
        let batch = Batch(id: state.nextBatchID, deadline: deadline)
        state.phase = .pending(batch)
        return .drive(batch)
      case .pending(var batch):
        batch.deadline = deadline
        state.phase = .pending(batch)
        return .join(batch.completion)
      }
    }
    switch role {
    case .drive(let batch):
      await drive(batch)
    case .join(let completion):
      await completion.wait()
    }
    storage.withLock { $0.waitingCallers -= 1 }
  }

  /// Drops a pending debounced load and forwards `cancel()` to the base.
  public func cancel() {
    let batch = storage.withLock { state -> Batch? in
      guard case .pending(let batch) = state.phase else { return nil }
      state.phase = .quiet
      return batch
    }
    base.cancel()
    batch?.cancellation.signal()
    batch?.completion.signal()
  }

  private func drive(_ batch: Batch) async {
    defer { batch.completion.signal() }
    var deadline = batch.deadline
    while true {
      let time = self.time
      let target = deadline
      let slept = await batch.cancellation.runCancellable {
        (try? await time.sleep(until: target)) != nil
      }
      let decision = storage.withLock { state -> Decision in
        guard case .pending(let current) = state.phase, current.id == batch.id else { return .abandon }
        guard slept, !Task.isCancelled else {
          state.phase = .quiet
          return .abandon
        }
        if current.deadline > target { return .sleep(until: current.deadline) }
        state.phase = .quiet
        return .fire
      }
      switch decision {
      case .sleep(let later):
        deadline = later
      case .abandon:
        return
      case .fire:
        let settledBefore = observer.settledCount
        await base.load()
        _ = await observer.waitForSettled(after: settledBefore)
        return
      }
    }
  }
}
