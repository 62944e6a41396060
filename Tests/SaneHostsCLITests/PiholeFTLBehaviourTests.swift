import Foundation
import TestSupport
import Testing

/// `sanehosts pihole` and `test --pihole` against the behaviours of a real FTL v6.4.1 that the double
/// reproduces (docs: ../shared/docs/pihole-v6-api.md, "Behaviour of a real FTL v6.4.1"). Each test failed
/// on the code before these fixes.
@Suite("sanehosts pihole against FTL v6.4.1's observed behaviour")
struct PiholeFTLBehaviourTests {
  /// A runner for `double` with its password in the environment.
  static func runner(_ cli: StoreCLI, _ double: PiholeDouble) throws -> CommandRunner {
    var runner = try cli.runner
    runner.environment["PIHOLE_PASSWORD"] = "secret"
    runner.environment["PIHOLE_HOST"] = double.baseURL
    return runner
  }

  @Test("test --pihole asks about the whole registry one search at a time on one session: FTL does not crash")
  func serialSearches() async throws {
    try await PiholeDouble.with { double in
      double.addList("https://lists.website/a.txt", domains: ["api.bugsnag.com", "ad.doubleclick.net"])
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, double)
      try await DNSServerProcess.withCatchAll(directory: cli.directory.url) { server in
        let result = try await runner.run([
          "test", "--pihole", double.baseURL, "--resolver", "127.0.0.1:\(server.port)", "--json", "--no-save",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!double.crashed, "searches overlapped: a real FTL would have crashed")
        #expect(result.standardError.contains("Asked the Pi-hole about 128 domains, one at a time."))
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let coverage = try #require(object?["coverage"] as? [String: Any])
        #expect(
          (coverage["sources"] as? [[String: Any]])?.first?["domains"] as? [String] == [
            "ad.doubleclick.net", "api.bugsnag.com",
          ])
      }
      #expect(double.requestLog.filter { $0.path == "/api/auth" && $0.method == "POST" }.count == 1)
      #expect(double.activeSessions == 0)
      #expect(double.userAgents == ["sanehosts/0.1.0"])
    }
  }

  @Test("Ctrl-C or SIGTERM while sync streams the gravity log: exit 130 or 143, and the session is logged out")
  func signalsLogOut() async throws {
    for (signal, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
      // A slow log (25 lines, a second each): the signal lands mid-stream even if this test's task is
      // scheduled late on a busy machine.
      try await PiholeDouble.with(.init(password: "secret", gravityLineDelay: .seconds(1))) { double in
        let cli = try StoreCLI()
        defer { cli.remove() }
        let runner = try Self.runner(cli, double)
        #expect(try await runner.run(["sources", "add", "https://lists.website/a.txt"]).status == 0)
        let result = try await runner.run(["pihole", "sync"]) { process in
          let deadline = ContinuousClock.now + .seconds(20)
          while !double.requestLog.contains(where: { $0.path == "/api/action/gravity" }) {
            guard ContinuousClock.now < deadline else { return }
            try await Task.sleep(for: .milliseconds(20))
          }
          try await Task.sleep(for: .milliseconds(400))  // well inside the streamed log
          kill(process.processIdentifier, signal)
        }
        #expect(result.status == status, "signal \(signal): \(result.standardError)")
        #expect(double.activeSessions == 0, "signal \(signal) left the session open")
      }
    }
  }

  @Test("Ctrl-C while test --pihole searches, and SIGTERM while it logs in: the session is closed either way")
  func signalsDuringSearchesAndLogin() async throws {
    let configuration = PiholeDouble.Configuration(password: "secret", searchLatency: .milliseconds(100))
    try await PiholeDouble.with(configuration) { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, double)
      try await DNSServerProcess.withCatchAll(directory: cli.directory.url) { server in
        let arguments = ["test", "--pihole", double.baseURL, "--resolver", "127.0.0.1:\(server.port)", "--no-save"]
        let searching = try await runner.run(arguments) { process in
          let deadline = ContinuousClock.now + .seconds(20)
          while double.requestLog.filter({ $0.path.hasPrefix("/api/search/") }).count < 3 {
            guard ContinuousClock.now < deadline else { return }
            try await Task.sleep(for: .milliseconds(20))
          }
          kill(process.processIdentifier, SIGINT)
        }
        #expect(searching.status == 130, "\(searching.standardError)")
        #expect(double.activeSessions == 0)
        #expect(!double.crashed)
      }
      // SIGTERM as soon as the login request reaches the Pi-hole.
      let logins = double.requestLog.filter { $0.path == "/api/auth" && $0.method == "POST" }.count
      let login = try await runner.run(["pihole", "lists"]) { process in
        let deadline = ContinuousClock.now + .seconds(20)
        while double.requestLog.filter({ $0.path == "/api/auth" && $0.method == "POST" }).count == logins {
          guard ContinuousClock.now < deadline else { return }
          try await Task.sleep(for: .milliseconds(1))
        }
        kill(process.processIdentifier, SIGTERM)
      }
      #expect([0, 143].contains(login.status), "\(login.standardError)")
      #expect(double.activeSessions == 0)
    }
  }

  @Test(
    "sync runs gravity when a synced list's content changed, says why not when nothing did, waits for FTL to accept writes, reports each list"
  )
  func gravityOnContentChange() async throws {
    try await PiholeDouble.with { double in
      try await FixtureServer.with { lists in
        lists.route("/a.txt", .resource(.init("a.website\n", etag: "\"1\"")))
        let url = lists.url("/a.txt").absoluteString
        double.setContents(["a.website"], forAddress: url)
        let cli = try StoreCLI()
        defer { cli.remove() }
        let runner = try Self.runner(cli, double)
        #expect(try await runner.run(["sources", "add", url]).status == 0)
        #expect(try await runner.run(["update", "--quiet"]).status == 0)
        let first = try await runner.run(["pihole", "sync"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(double.gravityRuns == 1)
        #expect(first.standardError.contains("  1 domains, 0 invalid, updated: \(url)"), "\(first.standardError)")
        // The deny rule right after sync: FTL's database was read-only for 2 s after gravity.
        let deny = try await runner.run(["pihole", "deny", "add", "x.website"])
        #expect(deny.status == 0, "\(deny.standardError)")
        let unchanged = try await runner.run(["pihole", "sync"])
        #expect(unchanged.standardError.contains("Gravity not rebuilt: no list was added or removed, and none changed"))
        #expect(double.gravityRuns == 1)
        // The Pi-hole keeps whole seconds: let the clock pass the second of its gravity run.
        let second = Int(Date().timeIntervalSince1970)
        while Int(Date().timeIntervalSince1970) == second { try await Task.sleep(for: .milliseconds(50)) }
        lists.route("/a.txt", .resource(.init("a.website\nb.website\n", etag: "\"2\"")))
        double.setContents(["a.website", "b.website"], forAddress: url)
        #expect(try await runner.run(["update", "--quiet"]).status == 0)
        let changed = try await runner.run(["pihole", "sync"])
        #expect(changed.status == 0, "\(changed.standardError)")
        #expect(changed.standardOutput.contains("~ \(url) (content changed since the Pi-hole's last download)"))
        #expect(double.gravityRuns == 2)
        #expect(changed.standardError.contains("  2 domains, 0 invalid, updated: \(url)"), "\(changed.standardError)")
        #expect(double.activeSessions == 0)
      }
    }
  }

  @Test("--remove-dropped removes only lists added for the profile being synced")
  func removeDroppedPerProfile() async throws {
    try await PiholeDouble.with(.init(password: "secret", readOnlyAfterGravity: .zero)) { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, double)
      #expect(try await runner.run(["sources", "add", "https://lists.website/default.txt"]).status == 0)
      #expect(try await runner.run(["pihole", "sync", "--no-gravity"]).status == 0)
      #expect(try await runner.run(["profile", "create", "other"]).status == 0)
      let source = ["sources", "add", "https://lists.website/other.txt", "--profile", "other"]
      #expect(try await runner.run(source).status == 0)
      let dry = try await runner.run(["pihole", "sync", "--profile", "other", "--remove-dropped", "--dry-run"])
      #expect(dry.standardOutput == "+ https://lists.website/other.txt\n", "\(dry.standardOutput)")
      let sync = try await runner.run(["pihole", "sync", "--profile", "other", "--remove-dropped", "--no-gravity"])
      #expect(sync.status == 0, "\(sync.standardError)")
      #expect(
        Set(double.lists.map(\.address)) == ["https://lists.website/default.txt", "https://lists.website/other.txt"])
    }
  }

  @Test("Rules are lower-cased as FTL stores them: what deny add took, deny remove finds in any case")
  func lowerCase() async throws {
    try await PiholeDouble.with { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, double)
      #expect(try await runner.run(["pihole", "deny", "add", "UPPER.Example.COM"]).status == 0)
      #expect(double.domainRules.map(\.domain) == ["upper.example.com"])
      let removed = try await runner.run(["pihole", "deny", "remove", "UPPER.example.com"])
      #expect(removed.status == 0, "\(removed.standardError)")
      #expect(double.domainRules.isEmpty)
    }
  }

  @Test("sync skips a source whose last update failed, saying why; gravity's failed lists are named")
  func failedSources() async throws {
    try await PiholeDouble.with(.init(password: "secret", readOnlyAfterGravity: .zero)) { double in
      try await FixtureServer.with { lists in
        lists.route("/gone.txt", .status(404))
        lists.route("/good.txt", .resource(.init("a.website\n")))
        let gone = lists.url("/gone.txt").absoluteString
        let good = lists.url("/good.txt").absoluteString
        let cli = try StoreCLI()
        defer { cli.remove() }
        let runner = try Self.runner(cli, double)
        for url in [gone, good] { #expect(try await runner.run(["sources", "add", url]).status == 0) }
        _ = try await runner.run(["update", "--quiet"])
        double.setContents(["a.website"], forAddress: good)
        let sync = try await runner.run(["pihole", "sync"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("skipped: \(gone) (its last update failed: "), "\(sync.standardError)")
        #expect(double.lists.map(\.address) == [good])
        // A list that fails on the Pi-hole's side is named after gravity.
        double.failDownload(of: good)
        // A new list makes the next sync run gravity.
        _ = try await runner.run(["sources", "add", "https://lists.website/x.txt"])
        let again = try await runner.run(["pihole", "sync"])
        #expect(
          again.standardError.contains("warning: gravity could not download 1 list(s) (\(good))"),
          "\(again.standardError)")
      }
    }
  }

  @Test("Messages: one refused item, an empty password file, TLS to an http port, a server that is not a Pi-hole")
  func messages() async throws {
    try await PiholeDouble.with { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      var runner = try Self.runner(cli, double)
      double.addList("https://lists.website/a.txt", comment: "mine")
      #expect(try await runner.run(["pihole", "deny", "add", "dup.website"]).status == 0)
      let duplicate = try await runner.run(["pihole", "deny", "add", "dup.website"])
      #expect(duplicate.status == 1)
      #expect(duplicate.standardError.contains("Fix or skip the item named"), "\(duplicate.standardError)")
      #expect(!duplicate.standardError.contains("The other items were applied"))
      let empty = cli.directory.file("empty-password")
      try Data().write(to: empty)
      runner.environment["PIHOLE_PASSWORD"] = nil
      let emptyResult = try await runner.run(["pihole", "lists", "--password-file", empty.path])
      #expect(emptyResult.status == 1 && emptyResult.standardError.contains("empty-password is empty."))
      #expect(
        emptyResult.standardError.contains("\nPut the Pi-hole's web interface password on its first line"),
        "\(emptyResult.standardError)")
      runner.environment["PIHOLE_PASSWORD"] = "secret"
      let tls = try await runner.run(["pihole", "lists", "--host", "https://127.0.0.1:\(double.port)"])
      #expect(tls.status == 1)
      #expect(tls.standardError.contains("TLS handshake failed: is that an http:// port?"), "\(tls.standardError)")
      #expect(!tls.standardError.contains(".swift") && !tls.standardError.contains("/work/"))
      let refused = try await runner.run(["pihole", "lists", "--host", "http://127.0.0.1:\(try FreePort.forDNS())"])
      #expect(
        refused.standardError.contains("connection refused (nothing listens on that port)"), "\(refused.standardError)")
      #expect(!refused.standardError.contains("error set"))
    }
    try await FixtureServer.with { server in
      server.route("/api/auth", .status(501))
      let cli = try StoreCLI()
      defer { cli.remove() }
      var runner = try cli.runner
      runner.environment["PIHOLE_PASSWORD"] = "secret"
      let result = try await runner.run(["pihole", "lists", "--host", server.baseURL.absoluteString])
      #expect(result.status == 1)
      #expect(result.standardError.contains("is this a Pi-hole v6 web server?"), "\(result.standardError)")
    }
  }
}
