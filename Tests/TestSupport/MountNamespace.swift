import Foundation

/// Runs shell scripts in a private mount namespace, where they may mount (a tmpfs, a bind mount over
/// /etc/hosts, a read-only remount) without touching this machine's own mounts. Needs root and
/// util-linux's `unshare`.
public enum MountNamespace {
  /// Whether this process can make one: root, with `unshare` installed.
  public static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: unshare)
  }

  static let unshare = "/usr/bin/unshare"

  /// Runs `script` with `/bin/sh` in a new mount namespace with private propagation; returns its exit
  /// status and its standard output and error, interleaved.
  public static func run(_ script: String, environment: [String: String]) async throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: unshare)
    process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", script]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // Wait off Swift's cooperative pool: blocking it would stall every other test.
    return await onOwnThread {
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
  }
}
