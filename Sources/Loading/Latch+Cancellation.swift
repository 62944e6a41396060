extension Latch {
  /// Runs `operation` in a child task that is cancelled as soon as the latch is signalled.
  ///
  /// This keeps the work structured (it runs inside the caller's task tree, and cancelling the caller
  /// cancels it too) while still letting another task cancel it by signalling the latch.
  /// Returns whatever `operation` returns once it has finished, cancelled or not.
  public func runCancellable<Output: Sendable>(
    _ operation: @escaping @Sendable () async -> Output
  ) async -> Output {
    await withTaskGroup(of: Output?.self) { group in
      group.addTask { await operation() }
      group.addTask {
        await self.wait()
        return nil
      }
      var result: Output?
      while let finished = await group.next() {
        if let value = finished { result = value }
        group.cancelAll()
      }
      guard let result else { preconditionFailure("The operation child task always produces a result") }
      return result
    }
  }
}
