import Loading

/// Runs `operation` until it ends or `latch` is signalled; on the signal calls `onCancel`, then cancels it.
///
/// `onCancel` lets a job stop what task cancellation alone does not reach at once (open transfers).
/// Throws `CancellationError` when cancelled.
func runCancellable<R: Sendable>(
  _ latch: Latch, onCancel: @escaping @Sendable () async -> Void = {},
  _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await withThrowingTaskGroup(of: R?.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      await latch.wait()
      if latch.isSignalled { await onCancel() }
      return nil
    }
    defer { group.cancelAll() }
    while let result = try await group.next() {
      if let result { return result }
      group.cancelAll()
    }
    throw CancellationError()
  }
}
