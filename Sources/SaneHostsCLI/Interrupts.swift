import ArgumentParser
import Dispatch
import Foundation
import Locking

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
    try await cancelling(onSignalNumber: { _ in await onSignal() }, operation)
  }

  /// Runs `operation`; SIGINT or SIGTERM cancels it, and once it has ended (its clean-up done: a Pi-hole
  /// session logged out) the command exits with 130 or 143, as if the signal had ended it.
  static func exitingOnSignal<R: Sendable>(_ operation: @escaping @Sendable () async throws -> R) async throws -> R {
    let received = Locked<Int32?>(nil)
    do {
      return try await cancelling(onSignalNumber: { number in received.withLock { $0 = number } }, operation)
    } catch {
      if let number = received.withLock({ $0 }) { throw ExitCode(128 + number) }
      throw error
    }
  }

  private static func cancelling<R: Sendable>(
    onSignalNumber onSignal: @escaping @Sendable (Int32) async -> Void,
    _ operation: @escaping @Sendable () async throws -> R
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
        for await number in signals {
          await onSignal(number)
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
