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

/// Turns Ctrl-C (SIGINT), SIGTERM and a closed output pipe into a clean cancel instead of an abrupt exit.
enum Interrupts {
  /// Runs `operation`; on SIGINT or SIGTERM calls `onSignal` and cancels the operation, so work stops and cleans up.
  ///
  /// The operation is expected to finish soon after `onSignal` (its streams end with "cancelled").
  static func cancelling<R: Sendable>(
    onSignal: @escaping @Sendable () async -> Void, _ operation: @escaping @Sendable () async throws -> R
  ) async throws -> R {
    try await cancelling(onSignalNumber: { _ in await onSignal() }, operation)
  }

  /// Runs `operation`, cancelled on SIGINT or SIGTERM, with nothing else to do on the signal.
  static func cancelling<R: Sendable>(_ operation: @escaping @Sendable () async throws -> R) async throws -> R {
    try await cancelling(onSignal: {}, operation)
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

/// The write end of the signal pipe, for the signal handler (which can only use globals).
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// The process's one handler of SIGINT and SIGTERM, installed on first use and never removed: each
/// `Interrupts` call listens while it runs. A signal with no listener ends the process as the default
/// action would (exit 128 + the signal's number).
///
/// A plain `sigaction` handler writes the signal's number to a pipe, and a thread of its own, with both
/// signals unblocked, reads it and tells the listeners. A dispatch signal source was not enough: on Linux
/// it relies on the signal being blocked in every thread, so a signal taken by a thread that did not
/// block it was ignored (seen when the command was started by a thread that blocked them, as a test
/// runner's threads do), and a second source after a first one was cancelled could miss signals.
final class SignalHub: Sendable {
  static let shared = SignalHub()

  private struct State {
    var listeners: [Int: @Sendable (Int32) -> Void] = [:]
    var next = 0
  }
  private let state = Locked(State())

  private init() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    signalPipeWrite = ends[1]
    let read = ends[0]
    let state = self.state
    let thread = Thread {
      var mask = sigset_t()
      sigemptyset(&mask)
      sigaddset(&mask, SIGINT)
      sigaddset(&mask, SIGTERM)
      pthread_sigmask(SIG_UNBLOCK, &mask, nil)
      var byte: UInt8 = 0
      while true {
        let count = Glibc.read(read, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { return }
        let number = Int32(byte)
        let listeners = state.withLock { Array($0.listeners.values) }
        if listeners.isEmpty { exit(128 + number) }
        for listener in listeners { listener(number) }
      }
    }
    thread.name = "sanehosts-signals"
    thread.start()
    let handler: @convention(c) (Int32) -> Void = { number in
      var byte = UInt8(truncatingIfNeeded: number)
      _ = write(signalPipeWrite, &byte, 1)
    }
    for number in [SIGINT, SIGTERM] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = handler
      sigemptyset(&action.sa_mask)
      action.sa_flags = Int32(SA_RESTART)
      sigaction(number, &action, nil)
    }
    // Signals blocked in the thread that starts listening (inherited from whoever started us) still reach
    // the reader thread; unblock them here too so nothing waits pending.
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, SIGINT)
    sigaddset(&mask, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &mask, nil)
  }

  /// Tells the listeners of a signal as if it had come (SIGPIPE when standard output's reader went
  /// away): with none listening, the process exits with 128 + its number.
  func raise(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWrite, &byte, 1)
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
