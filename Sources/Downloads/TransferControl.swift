import Locking

/// The cancellation handle of one transfer, shared by the manager, the stream and the transfer's task.
final class TransferControl: Sendable {
  /// Why a transfer was stopped.
  enum CancelReason: Sendable, Equatable {
    /// `cancel(url)` was called.
    case requested
    /// A newer request for the same URL replaced this one.
    case superseded
    /// The consumer stopped iterating the stream.
    case consumerGone
  }

  /// Where the transfer is in its life.
  enum State: Sendable {
    case created
    case running(Task<Void, Never>)
    case cancelled(CancelReason)
    case finished
  }

  private let state = Locked(State.created)
  /// The transfer's task, kept after a cancel so that it can still be waited for.
  private let task = Locked<Task<Void, Never>?>(nil)

  /// Starts the transfer's task unless the transfer was cancelled before it could start.
  func start(_ operation: @escaping @Sendable () async -> Void) {
    state.withLock { state in
      guard case .created = state else { return }
      let started = Task(operation: operation)
      task.withLock { $0 = started }
      state = .running(started)
    }
  }

  /// Returns once the transfer's task has ended (at once if it never started).
  func wait() async {
    await task.withLock { $0 }?.value
  }

  /// Cancels the transfer's task; the first reason given is kept.
  func cancel(_ reason: CancelReason) {
    let task: Task<Void, Never>? = state.withLock { state in
      switch state {
      case .running(let task):
        state = .cancelled(reason)
        return task
      case .created:
        state = .cancelled(reason)
        return nil
      case .cancelled, .finished:
        return nil
      }
    }
    task?.cancel()
  }

  /// Marks the transfer finished, so a late cancel does nothing.
  func finish() {
    state.withLock { state in
      if case .running = state { state = .finished }
    }
  }

  /// Why the transfer was cancelled, if it was.
  var cancelReason: CancelReason? {
    state.withLock { state in
      if case .cancelled(let reason) = state { return reason }
      return nil
    }
  }
}
