import Foundation

/// A program the tests need, found on PATH, /usr/sbin, /sbin or systemd's own folder (/lib/systemd).
///
/// A missing tool fails the test with the Debian package to install: CI installs them all
/// (`scripts/test.sh`), so a test never skips silently because a server is missing.
public enum RequiredTool {
  /// The absolute path of `name`, or an error naming `package`.
  public static func path(_ name: String, package: String) throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":").map(String.init) + [
      "/usr/sbin", "/sbin", "/lib/systemd", "/usr/lib/systemd",
    ] {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw Missing(name: name, package: package)
  }

  /// A program that is not installed.
  public struct Missing: Error, CustomStringConvertible {
    /// The program.
    public var name: String
    /// The Debian package providing it.
    public var package: String
    /// The message shown when a test fails with it.
    public var description: String {
      "\(name) is not installed: install the Debian package \(package) (apt-get install \(package)), as scripts/test.sh does."
    }
  }
}
