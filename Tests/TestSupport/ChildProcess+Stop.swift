import Apply
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension ChildProcess {
  /// Stops a server the tests started: SIGTERM, then SIGKILL if it is still running after `grace`; waits
  /// for it to end.
  public func stop(grace: Duration = .seconds(5)) async {
    send(SIGTERM)
    let deadline = ContinuousClock.now + grace
    while !hasExited && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    send(SIGKILL)
    _ = await status()
  }
}
