import Locking

/// A continuation that the first of several racers resumes; later resumes are ignored.
///
/// Lets blocking work on its own thread (getaddrinfo) race task cancellation without leaking or
/// double-resuming the continuation.
final class ResumeOnce<Value: Sendable>: Sendable {
  private let state = Locked<(CheckedContinuation<Value, Never>?, Value?)>((nil, nil))

  /// Stores the continuation; resumes it at once if a value came first.
  func set(_ continuation: CheckedContinuation<Value, Never>) {
    let early: Value? = state.withLock { state in
      if let value = state.1 { return value }
      state.0 = continuation
      return nil
    }
    if let early { continuation.resume(returning: early) }
  }

  /// Resumes with `value` if nothing resumed yet.
  func resume(_ value: Value) {
    let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
      if state.1 != nil { return nil }
      state.1 = value
      defer { state.0 = nil }
      return state.0
    }
    continuation?.resume(returning: value)
  }
}
