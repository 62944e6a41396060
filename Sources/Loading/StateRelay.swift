import Locking

/// A thread-safe holder of a current value that replays it to every new observer, then streams updates.
///
/// Each call to `values()` (or read of `stream`) registers a new observer: its stream first yields the
/// current value, then every later `update(_:)`, in order. Observers are removed when their stream
/// terminates (for example when the consuming task is cancelled). `finish()` — or deallocating the
/// relay — finishes every stream, so `for await` loops over them always end.
///
/// Buffering: each observer's stream uses `.bufferingNewest(bufferSize)`. An observer that falls more
/// than `bufferSize` updates behind loses the oldest buffered values, never the newest, so it always
/// ends up seeing the latest state while memory stays bounded.
public final class StateRelay<Value: Sendable>: Sendable {
  private struct State {
    var value: Value
    var isFinished = false
    var nextID: UInt64 = 0
    var observers: [UInt64: AsyncStream<Value>.Continuation] = [:]
  }

  /// The final value of a finished relay, boxed so an optional `Value` cannot be mistaken for "not finished".
  private struct FinalValue {
    let value: Value
  }

  /// How many not-yet-consumed values each observer's stream keeps (the newest ones win).
  public let bufferSize: Int
  private let state: Locked<State>
  /// Held while an update is handed to the observers, so updates arrive in the order they were made;
  /// counts the updates delivered. (Not a `Locked<Void>`: ThreadSanitizer mistakes an `inout` access to a
  /// zero-sized value for one at the start of the lock object, which every call reads.)
  private let delivery = Locked<UInt64>(0)

  /// Creates a relay holding `initialValue`; `bufferSize` (at least 1, default 64) bounds each observer's backlog.
  public init(_ initialValue: Value, bufferSize: Int = 64) {
    self.bufferSize = max(1, bufferSize)
    self.state = Locked(State(value: initialValue))
  }

  deinit {
    finish()
  }

  /// The latest value, read synchronously.
  public var currentValue: Value {
    state.withLock { $0.value }
  }

  /// Whether `finish()` has been called; a finished relay ignores updates.
  public var isFinished: Bool {
    state.withLock { $0.isFinished }
  }

  /// The number of observers whose streams are still open.
  public var observerCount: Int {
    state.withLock { $0.observers.count }
  }

  /// A new stream that yields the current value, then every later update (same as `values()`).
  public var stream: AsyncStream<Value> {
    values()
  }

  /// Stores `value` as the current value and yields it to every observer; ignored after `finish()`.
  ///
  /// Observers get the value outside the state lock: a stream ending on another thread runs its
  /// termination handler (which takes the state lock) while holding the stream's own lock, so yielding
  /// under the state lock could deadlock. The delivery lock keeps concurrent updates in order.
  public func update(_ value: Value) {
    delivery.withLock { delivered in
      delivered &+= 1
      let observers = state.withLock { state -> [AsyncStream<Value>.Continuation] in
        guard !state.isFinished else { return [] }
        state.value = value
        return Array(state.observers.values)
      }
      for continuation in observers {
        continuation.yield(value)
      }
    }
  }

  /// Returns a new stream that yields the current value, then every later update until `finish()`.
  ///
  /// After `finish()` the stream yields the final value and finishes at once.
  public func values() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self,
      bufferingPolicy: .bufferingNewest(bufferSize)
    )
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    continuation.onTermination = { [weak self] _ in
      self?.removeObserver(id)
    }
    let finalValue = state.withLock { state -> FinalValue? in
      guard !state.isFinished else { return FinalValue(value: state.value) }
      state.observers[id] = continuation
      continuation.yield(state.value)
      return nil
    }
    if let finalValue {
      continuation.yield(finalValue.value)
      continuation.finish()
    }
    return stream
  }

  /// Finishes every observer's stream; later observers get the final value and finish at once.
  public func finish() {
    let continuations = state.withLock { state -> [AsyncStream<Value>.Continuation] in
      guard !state.isFinished else { return [] }
      state.isFinished = true
      let continuations = Array(state.observers.values)
      state.observers.removeAll()
      return continuations
    }
    for continuation in continuations {
      continuation.finish()
    }
  }

  private func removeObserver(_ id: UInt64) {
    let removed = state.withLock { $0.observers.removeValue(forKey: id) }
    withExtendedLifetime(removed) {}
  }
}
