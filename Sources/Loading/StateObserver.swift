import Locking

/// Observes a wrapped loader's state stream exactly once and lets its owner wait for settled states.
///
/// The first `start(subscribe:onState:)` subscribes (synchronously, so nothing published afterwards is
/// missed) and spawns the one forwarding task; later calls only wait for that first subscription.
/// The replayed first element is not forwarded: it only marks the observer as ready. Every later state
/// is handed to `onState` in order, and each settled (non-`.loading`) state increments `settledCount`,
/// which `waitForSettled(after:)` waits on. The forwarding task is owned by the observer and cancelled
/// by `stop()` or when the observer is deallocated.
final class StateObserver<Value: Sendable>: Sendable {
  private enum Phase {
    case notStarted
    case observing(Task<Void, Never>)
    case ended
  }

  private struct Waiter {
    let target: Int
    let continuation: CheckedContinuation<LoadingState<Value>?, Never>
  }

  private enum Outcome {
    case wait
    case resume(LoadingState<Value>?)
  }

  private struct State {
    var phase: Phase = .notStarted
    var settledCount = 0
    var latestSettled: LoadingState<Value>?
    var nextID: UInt64 = 0
    var waiters: [UInt64: Waiter] = [:]
  }

  private let state = Locked(State())
  private let ready = Latch()

  /// Creates an observer that has not subscribed yet.
  init() {}

  deinit {
    stop()
  }

  /// Whether `start(subscribe:onState:)` has subscribed (even if the stream has since ended).
  var hasStarted: Bool {
    state.withLock { state in
      if case .notStarted = state.phase { return false }
      return true
    }
  }

  /// How many settled states have been received after the replayed one.
  var settledCount: Int {
    state.withLock { $0.settledCount }
  }

  /// Subscribes once (calling `subscribe` synchronously) and waits until the replayed state has arrived.
  ///
  /// Only the first call subscribes and installs `onState`; later calls just wait for readiness.
  func start(
    subscribe: () -> AsyncStream<LoadingState<Value>>,
    onState: @escaping @Sendable (LoadingState<Value>) -> Void
  ) async {
    state.withLock { state in
      guard case .notStarted = state.phase else { return }
      let stream = subscribe()
      let task = Task { [weak self] in
        var isReplay = true
        for await element in stream {
          guard let self else { return }
          self.receive(element, isReplay: isReplay, onState: onState)
          isReplay = false
        }
        self?.end()
      }
      state.phase = .observing(task)
    }
    await ready.wait()
  }

  /// Waits until more than `count` settled states have been received and returns the latest one.
  ///
  /// Returns `nil` when the stream has ended or the calling task is cancelled.
  func waitForSettled(after count: Int) async -> LoadingState<Value>? {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<LoadingState<Value>?, Never>) in
        let outcome = state.withLock { state -> Outcome in
          if state.settledCount > count { return .resume(state.latestSettled) }
          if case .ended = state.phase { return .resume(nil) }
          if Task.isCancelled { return .resume(nil) }
          state.waiters[id] = Waiter(target: count + 1, continuation: continuation)
          return .wait
        }
        if case .resume(let settled) = outcome {
          continuation.resume(returning: settled)
        }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.continuation.resume(returning: nil)
    }
  }

  /// Cancels the forwarding task (ending the subscription) and releases every waiter.
  func stop() {
    let task = state.withLock { state -> Task<Void, Never>? in
      guard case .observing(let task) = state.phase else { return nil }
      return task
    }
    task?.cancel()
  }

  private func receive(
    _ element: LoadingState<Value>,
    isReplay: Bool,
    onState: @Sendable (LoadingState<Value>) -> Void
  ) {
    guard !isReplay else {
      ready.signal()
      return
    }
    onState(element)
    guard !element.isLoading else { return }
    let due = state.withLock { state -> [Waiter] in
      state.settledCount += 1
      state.latestSettled = element
      let due = state.waiters.filter { $0.value.target <= state.settledCount }
      for id in due.keys {
        state.waiters.removeValue(forKey: id)
      }
      return Array(due.values)
    }
    for waiter in due {
      waiter.continuation.resume(returning: element)
    }
  }

  private func end() {
    let waiters = state.withLock { state -> [Waiter] in
      state.phase = .ended
      let waiters = Array(state.waiters.values)
      state.waiters.removeAll()
      return waiters
    }
    for waiter in waiters {
      waiter.continuation.resume(returning: nil)
    }
    ready.signal()
  }
}
