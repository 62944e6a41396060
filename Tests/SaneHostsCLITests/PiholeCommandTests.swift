import Foundation
import Store
import TestSupport
import Testing

@Suite("sanehosts pihole")
struct PiholeCommandTests {
  /// The command line on `cli`'s store, signed in to `double` with its password.
  static func runner(_ cli: StoreCLI, for double: PiholeDouble) throws -> CommandRunner {
    var runner = try cli.runner
    runner.environment["PIHOLE_PASSWORD"] = "secret"
    runner.environment["PIHOLE_HOST"] = double.baseURL
    return runner
  }

  @Test("sync adds the profile's URL sources marked as ours, never touches the user's lists, removes ours when dropped")
  func sync() async throws {
    try await PiholeDouble.with { double in
      double.addList("https://lists.website/mine.txt", comment: "added by hand", domains: ["m.website"])
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, for: double)
      for url in ["https://lists.website/a.txt", "https://lists.website/b.txt"] {
        #expect(try await runner.run(["sources", "add", url]).status == 0)
      }
      let dry = try await runner.run(["pihole", "sync", "--dry-run"])
      #expect(dry.status == 0, "\(dry.standardError)")
      #expect(dry.standardOutput == "+ https://lists.website/a.txt\n+ https://lists.website/b.txt\n")
      #expect(double.lists.count == 1)
      let sync = try await runner.run(["pihole", "sync"])
      #expect(sync.status == 0, "\(sync.standardError)")
      #expect(sync.standardError.contains("Added 2, removed 0, kept 0."))
      #expect(sync.standardError.contains("Rebuilding gravity"), "\(sync.standardError)")
      #expect(!sync.standardError.contains("\u{1B}"))
      #expect(double.gravityRuns == 1)
      #expect(double.lists.filter { ($0.comment ?? "").hasPrefix("Added by SaneHosts") }.count == 2)
      #expect(try await runner.run(["sources", "remove", "https://lists.website/b.txt"]).status == 0)
      let again = try await runner.run(["pihole", "sync", "--remove-dropped"])
      #expect(again.status == 0, "\(again.standardError)")
      #expect(Set(double.lists.map(\.address)) == ["https://lists.website/mine.txt", "https://lists.website/a.txt"])
      #expect(double.activeSessions == 0)
      let lists = try await runner.run(["pihole", "lists"])
      #expect(lists.standardOutput.contains("https://lists.website/mine.txt"), "\(lists.standardError)")
      let status = try await runner.run(["pihole", "status"])
      #expect(status.status == 0 && status.standardOutput.contains("Adlists: 2 block"), "\(status.standardOutput)")
      #expect(status.standardOutput.contains("Blocking: enabled"))
      #expect(status.standardOutput.contains("https://lists.website/a.txt"))
    }
  }

  @Test(
    "sync gives the Pi-hole the profile's rules as its own allow and deny entries (marked ours), and removes ours when their rule goes"
  )
  func syncRules() async throws {
    try await PiholeDouble.with { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, for: double)
      #expect(try await runner.run(["sources", "add", "https://lists.website/a.txt"]).status == 0)
      let rules = ["=keep.ads.website", "open.ads.website", "*.wild.website", "/^ad[0-9]+\\./"]
      #expect(try await runner.run(["allow", "add"] + rules).status == 0)
      #expect(try await runner.run(["deny", "add", "tracker.website"]).status == 0)
      let dry = try await runner.run(["pihole", "sync", "--dry-run"])
      #expect(dry.standardOutput.contains("+ allow exact keep.ads.website\n"), "\(dry.standardOutput)")
      #expect(dry.standardOutput.contains("+ allow regex (\\.|^)open\\.ads\\.website$\n"), "\(dry.standardOutput)")
      #expect(dry.standardError.contains("rules: 5 added, 0 removed, 0 kept"), "\(dry.standardError)")
      #expect(double.domainRules.isEmpty)
      let sync = try await runner.run(["pihole", "sync"])
      #expect(sync.status == 0, "\(sync.standardError)")
      let ours = double.domainRules.filter { ($0.comment ?? "").hasPrefix("Added by SaneHosts") }
      #expect(
        Set(ours.map { "\($0.type) \($0.kind) \($0.domain)" }) == [
          "allow exact keep.ads.website", "allow regex (\\.|^)open\\.ads\\.website$", "allow regex \\.wild\\.website$",
          "allow regex ^ad[0-9]+\\.", "deny exact tracker.website",
        ])
      // Every regular expression the Pi-hole took is one it compiles (its own check ran on each).
      #expect(try await runner.run(["allow", "remove", "open.ads.website"]).status == 0)
      let again = try await runner.run(["pihole", "sync", "--remove-dropped"])
      #expect(again.standardError.contains("rules: 0 added, 1 removed, 4 kept"), "\(again.standardError)")
      #expect(!double.domainRules.contains { $0.domain.contains("open") })
      #expect(double.activeSessions == 0)
    }
  }

  @Test(
    "A Pi-hole synced by hand is remembered: when an allow rule ends, allow expire removes its entry there too"
  )
  func ruleEndsOnPihole() async throws {
    try await PiholeDouble.with { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      let runner = try Self.runner(cli, for: double)
      #expect(try await runner.run(["sources", "add", "https://lists.website/a.txt"]).status == 0)
      #expect(try await runner.run(["allow", "add", "=for-now.website", "=always.website"]).status == 0)
      #expect(try await runner.run(["pihole", "sync", "--no-gravity"]).status == 0)
      #expect(Set(double.domainRules.map(\.domain)) == ["for-now.website", "always.website"])
      // The rule ends (the store takes a past end; the command line only ends to come).
      let store = try Store.open(DataDirectory(url: cli.dataDirectory))
      try store.removeRule("=for-now.website", action: .allow)
      try store.addRule("=for-now.website", action: .allow, expiresAt: Date().addingTimeInterval(-1))
      let expired = try await runner.run(["allow", "expire"])
      #expect(expired.status == 0, "\(expired.standardOutput) \(expired.standardError)")
      #expect(
        expired.standardOutput.contains("Ended: allow rule =for-now.website in default."), "\(expired.standardOutput)")
      #expect(
        expired.standardOutput.contains("\(double.baseURL) (pihole, profile default): "), "\(expired.standardOutput)")
      #expect(double.domainRules.map(\.domain) == ["always.website"], "\(double.domainRules)")
      #expect(double.activeSessions == 0)
    }
  }

  @Test("--save-password keeps the password 0600 for the next command; no output ever shows it")
  func savedPassword() async throws {
    try await PiholeDouble.with { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      var runner = try cli.runner
      runner.environment["PIHOLE_HOST"] = double.baseURL
      runner.environment["PIHOLE_PASSWORD"] = "secret"
      let first = try await runner.run(["pihole", "status", "--save-password"])
      #expect(first.status == 0, "\(first.standardError)")
      let file = cli.dataDirectory.appending(path: "pihole-password")
      #expect(try String(contentsOf: file, encoding: .utf8) == "secret\n")
      #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
      runner.environment["PIHOLE_PASSWORD"] = nil
      var outputs = [first]
      outputs.append(try await runner.run(["pihole", "status"]))
      #expect(outputs[1].status == 0, "the saved password logs in: \(outputs[1].standardError)")
      outputs.append(try await runner.run(["pihole", "lists", "--json"]))
      outputs.append(try await runner.run(["pihole", "status", "--json"]))
      for output in outputs {
        #expect(!(output.standardOutput + output.standardError).contains("secret"))
      }
      #expect(double.activeSessions == 0)
    }
  }

  @Test("allow and deny add and remove exact and regex rules; a bad regex is the Pi-hole's clear error")
  func rules() async throws {
    try await PiholeDouble.with { double in
      let cli = try StoreCLI()
      defer { cli.remove() }
      var runner = try cli.runner
      runner.environment["PIHOLE_HOST"] = double.baseURL
      let password = cli.directory.file("password")
      try Data("secret\n".utf8).write(to: password)
      let base = ["--password-file", password.path]
      #expect(try await runner.run(["pihole", "deny", "add", "ads.website"] + base).status == 0)
      #expect(try await runner.run(["pihole", "allow", "add", "--regex", "^good\\."] + base).status == 0)
      #expect(
        Set(double.domainRules.map { "\($0.type) \($0.kind) \($0.domain)" }) == [
          "deny exact ads.website", "allow regex ^good\\.",
        ])
      let bad = try await runner.run(["pihole", "deny", "add", "--regex", "[unclosed"] + base)
      #expect(bad.status == 1 && bad.standardError.contains("regex_error"), "\(bad.standardError)")
      #expect(try await runner.run(["pihole", "deny", "remove", "ads.website"] + base).status == 0)
      #expect(double.domainRules.count == 1)
      let wrong = try await runner.run(["pihole", "lists", "--password-file", "/nonexistent"])
      #expect(wrong.status != 0)
      #expect(double.activeSessions == 0)
    }
  }

  @Test("test --pihole: the score through its DNS, and which of its lists and rules cover each test domain")
  func testCoverage() async throws {
    try await PiholeDouble.with { double in
      let bugsnag = ["api.bugsnag.com", "app.bugsnag.com", "notify.bugsnag.com", "sessions.bugsnag.com"]
      double.addList("https://lists.website/a.txt", domains: bugsnag + ["other.website"])
      let cli = try StoreCLI()
      defer { cli.remove() }
      var runner = try cli.runner
      runner.environment["PIHOLE_PASSWORD"] = "secret"
      #expect(
        try await runner.run(["pihole", "deny", "add", "app.getsentry.com", "--host", double.baseURL]).status == 0)
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--address=/bugsnag.com/#", "--address=/app.getsentry.com/#", "--address=/#/192.0.2.50"],
        directory: cli.directory.url
      ) { server in
        let result = try await runner.run([
          "test", "--pihole", double.baseURL, "--resolver", "127.0.0.1:\(server.port)", "--category",
          "Error Trackers", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect((object["score"] as? [String: Any])?["blocked"] as? Int == 5)
        let coverage = try #require(object["coverage"] as? [String: Any])
        let sources = try #require(coverage["sources"] as? [[String: Any]])
        #expect(sources.first?["name"] as? String == "https://lists.website/a.txt")
        #expect((sources.first?["domains"] as? [String]).map(Set.init) == Set(bugsnag))
        #expect(sources.contains { $0["name"] as? String == "deny exact: app.getsentry.com" })
        #expect(coverage["uncovered"] as? [String] == ["browser.sentry-cdn.com"])
      }
      #expect(double.activeSessions == 0)
    }
  }
}
