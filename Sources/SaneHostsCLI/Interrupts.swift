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
      let result = try await cancelling(onSignalNumber: { number in received.withLock { $0 = number } }, operation)
      // The operation may have finished anyway (a stream that ended as the signal came): the signal still
      // decides the exit status.
      if let number = received.withLock({ $0 }) { throw ExitCode(128 + number) }
      return result
    } catch let exit as ExitCode {
      throw exit
    } catch {
      if let number = received.withLock({ $0 }) { throw ExitCode(128 + number) }
      throw error
    }
  }

  private static func cancelling<R: Sendable>(
    onSignalNumber onSignal: @escaping @Sendable (Int32) async -> Void,
    _ operation: @escaping @Sendable () async throws -> R
  ) async throws -> R {
    let (signals, continuation) = AsyncStream<Int32>.makeStream()
    let listener = SignalHub.shared.listen { continuation.yield($0) }
    continuation.onTermination = { _ in SignalHub.shared.stopListening(listener) }
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

/// The process's one handler of SIGINT and SIGTERM, installed on first use and never removed: each
/// `Interrupts` call listens while it runs. A signal with no listener ends the process as the default
/// action would (exit 128 + the signal's number).
///
/// One handler for the whole process, because installing and cancelling a dispatch signal source per
/// call raced: a second call (the Pi-hole coverage after `test`'s probes) could find its source dead and
/// the signal ignored.
final class SignalHub: Sendable {
  static let shared = SignalHub()

  private struct State {
    var listeners: [Int: @Sendable (Int32) -> Void] = [:]
    var next = 0
  }
  private let state = Locked(State())
  nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

  private init() {
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      return DispatchSource.makeSignalSource(signal: number)
    }
    for source in sources {
      let number = Int32(source.handle)
      source.setEventHandler { [state] in
        let listeners = state.withLock { Array($0.listeners.values) }
        if listeners.isEmpty { exit(128 + number) }
        for listener in listeners { listener(number) }
      }
      source.resume()
    }
  }

  /// Calls `handler` for each SIGINT or SIGTERM until `stopListening`.
  func listen(_ handler: @escaping @Sendable (Int32) -> Void) -> Int {
    state.withLock { state in
      state.next += 1
      state.listeners[state.next] = handler
      return state.next
    }
  }

  /// Stops calling the handler `listen` returned this key for.
  func stopListening(_ key: Int) {
    _ = state.withLock { $0.listeners.removeValue(forKey: key) }
  }
}
