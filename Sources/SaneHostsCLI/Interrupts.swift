import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into a clean cancel instead of an abrupt exit.
enum Interrupts {
  /// Runs `operation`; on SIGINT or SIGTERM calls `onSignal` and cancels the operation, so work stops and cleans up.
  ///
  /// The operation is expected to finish soon after `onSignal` (its streams end with "cancelled").
  static func cancelling<R: Sendable>(
    onSignal: @escaping @Sendable () async -> Void, _ operation: @escaping @Sendable () async throws -> R
  ) async throws -> R {
    let signals = AsyncStream<Int32> { continuation in
      nonisolated(unsafe) let sources = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number)
        source.setEventHandler { continuation.yield(number) }
        source.resume()
        return source
      }
      continuation.onTermination = { _ in
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
      }
    }
    return try await withThrowingTaskGroup(of: R?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        for await _ in signals {
          await onSignal()
          break
        }
        return nil
      }
      defer { group.cancelAll() }
      while let result = try await group.next() {
        if let result { return result }
        group.cancelAll()  // a signal arrived: cancel the operation too
      }
      throw CancellationError()
    }
  }
}
