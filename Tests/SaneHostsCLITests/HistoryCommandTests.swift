import Foundation
import TestSupport
import Testing

@Suite("sanehosts history")
struct HistoryCommandTests {
  @Test("With no runs: list says how to make one; show and diff fail clearly")
  func empty() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = try await cli.run("history")
    #expect(list.status == 0 && list.standardError.contains("No blocker tests yet"))
    let show = try await cli.run("history", "show")
    #expect(show.status != 0 && show.standardError.contains("No blocker tests yet"))
    let diff = try await cli.run("history", "diff")
    #expect(diff.status != 0 && diff.standardError.contains("fewer than two saved runs"))
    // Nothing saved yet is not a mistake in the arguments: no usage text, exit status 1.
    #expect(show.status == 1 && !show.standardError.lowercased().contains("usage:"), "\(show.standardError)")
    let one = try await cli.run("history", "diff", "1")
    #expect(one.status != 0 && one.standardError.contains("Give two run ids"))
    let unknown = try await cli.run("history", "show", "42")
    #expect(unknown.status == 1 && unknown.standardError.contains("There is no test run “42”"))
  }

  @Test("show prints a saved run again, as text or JSON; list --json has the scores")
  func showAndList() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let hosts = cli.directory.file("hosts")
    try Data(TestCommandTests.hostsFile.utf8).write(to: hosts)
    let script = """
      set -e
      mount --bind "$FAKE_HOSTS" /etc/hosts
      "$SANEHOSTS" test --category "Error Trackers" --quiet
      """
    let (status, output) = try await MountNamespace.run(
      script,
      environment: [
        "FAKE_HOSTS": hosts.path, "SANEHOSTS": try CommandRunner().executable.path,
        "SANEHOSTS_HOME": cli.dataDirectory.path, "TERM": "dumb",
      ])
    #expect(status == 0, "\(output)")
    #expect(output.contains("50 % (moderate)"))
    let shown = try await cli.ok("history", "show")
    #expect(shown.hasPrefix("Blocker test #1: system probe via system resolver, 6 domains"))
    let json = try #require(try await cli.json("history", "show", "1", "--json") as? [String: Any])
    #expect(json["id"] as? Int == 1)
    let list = try #require(try await cli.json("history", "list", "--json") as? [[String: Any]])
    #expect((list.first?["score"] as? [String: Any])?["rating"] as? String == "moderate")
  }
}
