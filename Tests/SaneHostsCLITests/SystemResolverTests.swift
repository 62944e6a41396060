import Apply
import Crypto
import Foundation
import TestSupport
import Testing

/// End to end through the system resolver, in a private mount namespace: a temporary file is
/// bind-mounted over /etc/hosts there, so this machine's own file is never touched.
@Suite(
  "Through the system resolver (private mount namespace)",
  .enabled(if: MountNamespace.isAvailable, "needs root and unshare for a private mount namespace"))
struct SystemResolverTests {
  static func digest(_ path: String) throws -> String {
    SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).description
  }

  @Test(
    "After apply, getent answers 0.0.0.0 for a blocked name and the real address for the user's own; disable undoes it")
  func getentAfterApply() async throws {
    let fixture = try await ApplyFixture.make(names: ["ads.website", "tracker.website"])
    defer { fixture.cli.remove() }
    try Data("127.0.0.1 localhost\n10.0.0.5 printer.lan\n".utf8).write(to: fixture.hosts)
    let realHosts = try Self.digest("/etc/hosts")
    let script = """
      set -e
      mount --bind "$FAKE_HOSTS" /etc/hosts
      # Write nothing unless /etc/hosts here really is the temporary file.
      grep -q '^10.0.0.5 printer.lan$' /etc/hosts || { echo "the bind mount is not in effect"; exit 97; }
      echo "before: $(getent hosts ads.website || echo none)"
      "$SANEHOSTS" apply
      echo "after: $(getent hosts ads.website)"
      echo "printer: $(getent hosts printer.lan)"
      "$SANEHOSTS" disable
      echo "disabled: $(getent hosts ads.website || echo none)"
      """
    let (status, output) = try await MountNamespace.run(
      script,
      environment: [
        "FAKE_HOSTS": fixture.hosts.path, "SANEHOSTS": try CommandRunner().executable.path,
        "SANEHOSTS_HOME": fixture.cli.dataDirectory.path, "TERM": "dumb",
      ])
    #expect(status == 0, "\(output)")
    let lines = output.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    #expect(lines.contains("after: 0.0.0.0 ads.website"), "\(output)")
    #expect(lines.contains("printer: 10.0.0.5 printer.lan"), "\(output)")
    #expect(!lines.contains("before: 0.0.0.0 ads.website"), "\(output)")
    #expect(!lines.contains("disabled: 0.0.0.0 ads.website"), "\(output)")
    // /etc/hosts was a mount point there: rewritten in place, and said so.
    #expect(output.contains("is a mount point"), "\(output)")
    // The machine's own file is untouched; the temporary file went back to what it was.
    #expect(try Self.digest("/etc/hosts") == realHosts)
    #expect(try fixture.hostsText() == "127.0.0.1 localhost\n10.0.0.5 printer.lan\n")
  }
}
