import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A running process that is no DNS server (`sleep`), for what must never be signalled as one.
public enum ForeignProcess {
  /// Runs `body` with a `sleep` process running, then ends it with SIGKILL (a SIGTERM the test runner
  /// ignores is inherited, ignored too); `body` gets its id and whether it still runs.
  public static func with<R>(_ body: (Int32, () -> Bool) async throws -> R) async throws -> R {
    let sleeper = Process()
    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeper.arguments = ["60"]
    try sleeper.run()
    defer {
      kill(sleeper.processIdentifier, SIGKILL)
      sleeper.waitUntilExit()
    }
    return try await body(sleeper.processIdentifier) { sleeper.isRunning }
  }
}
