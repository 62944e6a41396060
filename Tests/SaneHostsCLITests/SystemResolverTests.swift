import Apply
import Crypto
import Foundation
import TestSupport
import Testing

/// End to end through the system resolver, in a private mount namespace: a temporary file is
/// bind-mounted over /etc/hosts there, so this machine's own file is never touched.
@Suite("Through the system resolver (private mount namespace)")
struct SystemResolverTests {
  /// Runs a shell script in a new mount namespace (`unshare -m`, private propagation).
  static func inNamespace(_ script: String, environment: [String: String]) async throws -> (
    status: Int32, output: String
  ) {
    let unshare = "/usr/bin/unshare"
    try #require(FileManager.default.isExecutableFile(atPath: unshare), "unshare (util-linux) is needed")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: unshare)
    process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", script]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // Wait off Swift's cooperative pool: blocking it would stall every other test.
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
      }
    }
  }

  static func digest(_ path: String) throws -> String {
    SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).description
  }

  @Test(
    "After apply, getent answers 0.0.0.0 for a blocked name and the real address for the user's own; disable undoes it")
  func getentAfterApply() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.example", "tracker.example"])
    defer { fixture.cli.remove() }
    try Data("127.0.0.1 localhost\n10.0.0.5 printer.lan\n".utf8).write(to: fixture.hosts)
    let realHosts = try Self.digest("/etc/hosts")
    let script = """
      set -e
      mount --bind "$FAKE_HOSTS" /etc/hosts
      # Write nothing unless /etc/hosts here really is the temporary file.
      grep -q '^10.0.0.5 printer.lan$' /etc/hosts || { echo "the bind mount is not in effect"; exit 97; }
      echo "before: $(getent hosts ads.example || echo none)"
      "$SANEHOSTS" apply
      echo "after: $(getent hosts ads.example)"
      echo "printer: $(getent hosts printer.lan)"
      "$SANEHOSTS" disable
      echo "disabled: $(getent hosts ads.example || echo none)"
      """
    let (status, output) = try await Self.inNamespace(
      script,
      environment: [
        "FAKE_HOSTS": fixture.hosts.path, "SANEHOSTS": try CommandRunner().executable.path,
        "SANEHOSTS_HOME": fixture.cli.dataDirectory.path, "TERM": "dumb",
      ])
    #expect(status == 0, "\(output)")
    let lines = output.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    #expect(lines.contains("after: 0.0.0.0 ads.example"), "\(output)")
    #expect(lines.contains("printer: 10.0.0.5 printer.lan"), "\(output)")
    #expect(!lines.contains("before: 0.0.0.0 ads.example"), "\(output)")
    #expect(!lines.contains("disabled: 0.0.0.0 ads.example"), "\(output)")
    // /etc/hosts was a mount point there: rewritten in place, and said so.
    #expect(output.contains("is a mount point"), "\(output)")
    // The machine's own file is untouched; the temporary file went back to what it was.
    #expect(try Self.digest("/etc/hosts") == realHosts)
    #expect(try fixture.hostsText() == "127.0.0.1 localhost\n10.0.0.5 printer.lan\n")
  }
}
