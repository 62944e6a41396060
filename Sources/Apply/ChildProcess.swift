import Foundation
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program started with `posix_spawn`: no standard input, an empty signal mask and default signal
/// handling, whatever the starting thread had.
///
/// Foundation's `Process` passes the starting thread's signal mask on. Started from a Swift concurrency
/// or Dispatch thread, which block most signals, the program then never sees SIGTERM or SIGHUP: it
/// cannot be stopped or told to reload. A thread of its own waits for the program from the start, so it
/// never lingers as a zombie and its status is never taken by anyone else.
public final class ChildProcess: Sendable {
  /// The program's process id.
  public let pid: Int32
  private let state = Locked<State>(State())

  private struct State {
    var status: Int32?
    var waiters: [CheckedContinuation<Int32, Never>] = []
  }

  /// Starts the program at `path` (absolute) with `arguments`, its standard output and error going to the
  /// descriptors given (the caller still owns and closes them).
  public init(_ path: String, _ arguments: [String], standardOutput: Int32, standardError: Int32)
    throws(ProcessRunner.Error)
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
    posix_spawn_file_actions_adddup2(&actions, standardError, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    // Ignored signals (SIGPIPE in a Swift program) stay ignored across exec unless reset.
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([path] + arguments).map { strdup($0) }
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
      posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, environ)
    }
    guard result == 0 else { throw .launchFailed(path, detail: String(cString: strerror(result))) }
    self.pid = pid
    let thread = Thread { [self] in self.reap() }
    thread.name = "sanehosts-wait-\(pid)"
    thread.start()
  }

  /// Whether the program has ended (and been waited for).
  public var hasExited: Bool { state.withLock { $0.status != nil } }

  /// The exit status once it has ended: 128 + the signal number when a signal ended it, as a shell says.
  public func status() async -> Int32 {
    await withCheckedContinuation { continuation in
      let status = state.withLock { state -> Int32? in
        if state.status == nil { state.waiters.append(continuation) }
        return state.status
      }
      if let status { continuation.resume(returning: status) }
    }
  }

  /// Sends `signal` unless the program has already ended (its id may then belong to another process).
  public func send(_ signal: Int32) {
    state.withLock { state in
      if state.status == nil { kill(pid, signal) }
    }
  }

  /// Blocks its own thread until the program ends, then wakes everyone waiting.
  private func reap() {
    // Wait without reaping first: until the status is recorded, the id cannot go to another process, so
    // `send` never signals a stranger.
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    let (status, waiters) = state.withLock { state in
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
      let signal = raw & 0x7F
      let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
      state.status = status
      defer { state.waiters = [] }
      return (status, state.waiters)
    }
    for waiter in waiters { waiter.resume(returning: status) }
  }
}
