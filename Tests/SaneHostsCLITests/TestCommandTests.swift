import BlockerTest
import DNS
import Foundation
import TestSupport
import Testing

/// `sanehosts test` end to end.
@Suite("sanehosts test")
struct TestCommandTests {
  /// The six error-tracker domains: three point at a sinkhole, three at a routable test address.
  static let hostsFile = """
    127.0.0.1 localhost
    93.184.215.14 example.com
    208.80.154.224 wikipedia.org
    151.101.2.132 debian.org
    0.0.0.0 api.bugsnag.com
    0.0.0.0 app.bugsnag.com
    0.0.0.0 notify.bugsnag.com
    192.0.2.10 sessions.bugsnag.com
    192.0.2.11 app.getsentry.com
    192.0.2.12 browser.sentry-cdn.com

    """

  @Test("System probe in a private mount namespace: exact per-category score, saved in history, JUnit export")
  func systemProbe() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let hosts = cli.directory.file("hosts")
    try Data(Self.hostsFile.utf8).write(to: hosts)
    let junit = cli.directory.file("report.xml")
    let script = """
      set -e
      mount --bind "$FAKE_HOSTS" /etc/hosts
      "$SANEHOSTS" test --category "Error Trackers" --json --export junit "$JUNIT"
      """
    let (status, output) = try await MountNamespace.run(
      script,
      environment: [
        "FAKE_HOSTS": hosts.path, "SANEHOSTS": try CommandRunner().executable.path, "JUNIT": junit.path,
        "SANEHOSTS_HOME": cli.dataDirectory.path, "TERM": "dumb",
      ])
    #expect(status == 0, "\(output)")
    let json = try #require(output.firstIndex(of: "{").map { String(output[$0...]) })
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let score = try #require(object["score"] as? [String: Any])
    #expect(score["blocked"] as? Int == 3)
    #expect(score["reachable"] as? Int == 3)
    #expect(score["inconclusive"] as? Int == 0)
    #expect(score["percent"] as? Double == 50)
    #expect(score["rating"] as? String == "moderate")
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.first { $0["hostname"] as? String == "app.getsentry.com" }?["reason"] as? String == "192.0.2.11")
    #expect(try String(contentsOf: junit, encoding: .utf8).contains("failures=\"3\""))
    #expect(object["id"] as? Int != nil)
  }

  /// Whether dnsmasq's `address=/name/#` for `blocked` covers `name` (the name or a parent is listed).
  static func covered(_ name: String, by blocked: Set<String>) -> Bool {
    var candidate = Substring(name)
    while true {
      if blocked.contains(String(candidate)) { return true }
      guard let dot = candidate.firstIndex(of: ".") else { return false }
      candidate = candidate[candidate.index(after: dot)...]
    }
  }

  @Test(
    "DNS probe against dnsmasq loaded by apply --target dnsmasq: the exact score per category; which list would block the rest"
  )
  func dnsAgainstDnsmasq() async throws {
    let registry = Registry.builtIn
    let ads = registry.tested.filter { $0.category == "Ads" }.map(\.hostname)
    let analytics = registry.tested.filter { $0.category == "Analytics" }.prefix(10).map(\.hostname)
    let blocked = Set(ads + analytics)
    let fixture = try await ApplyFixture.make(names: ads + analytics)
    defer { fixture.cli.remove() }
    // Another profile's source lists one domain the applied profile does not block.
    let other = fixture.cli.directory.file("other.txt")
    try Data("ads.linkedin.com\n".utf8).write(to: other)
    try await fixture.cli.ok("profile", "create", "other")
    try await fixture.cli.ok("sources", "add", other.path, "--name", "extra", "--profile", "other")
    try await fixture.cli.ok("update", "--quiet", "--profile", "other")
    let dropIn = fixture.cli.directory.file("sanehosts.conf")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--conf-file=\(dropIn.path)", "--address=/#/192.0.2.50"], directory: fixture.cli.directory.url
    ) { server in
      let object = try #require(
        try await fixture.cli.json("test", "--probe", "dns", "--resolver", "127.0.0.1:\(server.port)", "--json")
          as? [String: Any])
      let categories = try #require(object["categories"] as? [[String: Any]])
      for category in registry.categories {
        let members = registry.tested.filter { $0.category == category }
        let expectedBlocked = members.filter { Self.covered($0.hostname, by: blocked) }.count
        let score = try #require(categories.first { $0["name"] as? String == category }?["score"] as? [String: Any])
        #expect(score["blocked"] as? Int == expectedBlocked, "\(category)")
        #expect(score["reachable"] as? Int == members.count - expectedBlocked, "\(category)")
        #expect(score["inconclusive"] as? Int == 0, "\(category)")
      }
      let adsScore = categories.first { $0["name"] as? String == "Ads" }?["score"] as? [String: Any]
      #expect(adsScore?["blocked"] as? Int == 19 && adsScore?["percent"] as? Double == 100)
      let results = try #require(object["results"] as? [[String: Any]])
      let linkedIn = results.first { $0["hostname"] as? String == "ads.linkedin.com" }
      #expect(linkedIn?["outcome"] as? String == "reachable")
      #expect(linkedIn?["listedBy"] as? [String] == ["extra"])
      // The run is in the history, and diff against a second run shows no change.
      try await fixture.cli.ok("test", "--probe", "dns", "--resolver", "127.0.0.1:\(server.port)", "--quiet")
      let diff = try await fixture.cli.ok("history", "diff")
      #expect(diff.contains("No domain changed."), "\(diff)")
      let list = try await fixture.cli.ok("history", "list")
      #expect(list.split(separator: "\n").count == 3)
    }
  }

  @Test("A resolver answering a block-page address: blocked with --block-page, reachable without")
  func blockPage() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let controls = [
      "--address=/example.com/93.184.215.14", "--address=/wikipedia.org/208.80.154.224",
      "--address=/debian.org/151.101.2.132", "--address=/#/192.0.2.99",
    ]
    try await DNSServerProcess.withDnsmasq(arguments: controls, directory: cli.directory.url) { server in
      let resolver = "127.0.0.1:\(server.port)"
      let with = try #require(
        try await cli.json(
          "test", "--probe", "dns", "--resolver", resolver, "--category", "Error Trackers", "--block-page",
          "192.0.2.99", "--json", "--no-save") as? [String: Any])
      #expect((with["score"] as? [String: Any])?["blocked"] as? Int == 6)
      let without = try await cli.run("test", "--probe", "dns", "--resolver", resolver, "--category", "Error Trackers")
      #expect(without.status == 0)
      #expect(without.standardOutput.contains("Score: [░░░░░░░░░░░░░░░░░░░░] 0 % (weak)"), "\(without.standardOutput)")
      let gated = try await cli.run(
        "test", "--probe", "dns", "--resolver", resolver, "--category", "Error Trackers", "--fail-under", "60",
        "--quiet")
      #expect(gated.status == 4)
    }
  }

  @Test("A resolver that never answers: no fake score, a clear message, only the controls probed")
  func blackHole() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FakeDNSServer.with({ _ in [] }) { server in
      let result = try await cli.run(
        "test", "--probe", "dns", "--resolver", "127.0.0.1:\(server.port)", "--timeout", "1")
      #expect(result.status == 1)
      #expect(result.standardError.contains("No control domain resolved"), "\(result.standardError)")
      #expect(!result.standardOutput.contains("Score:"))
      // The run stopped after the control domains (3 names, A and AAAA): the registry was never probed,
      // so it ended in one timeout (the benchmark times it: 2.03 s with a 2 s timeout).
      #expect(server.requests.count == 6, "\(server.requests.count) queries")
    }
  }

  @Test("Options are checked: dns needs a resolver, --export needs a known format and a file")
  func validation() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let missing = try await cli.run("test", "--probe", "dns")
    #expect(missing.status != 0 && missing.standardError.contains("--probe dns needs --resolver"))
    let export = try await cli.run("test", "--export", "pdf", "x.pdf")
    #expect(export.status != 0 && export.standardError.contains("--export takes a format"))
    let bad = try await cli.run("test", "--probe", "dns", "--resolver", "not-an-ip")
    #expect(bad.status == 1)
    let category = try await cli.run("test", "--category", "Nope")
    #expect(category.status == 1 && category.standardError.contains("Unknown category \"Nope\"."))
    #expect(category.standardError.contains("Use one of Ads,"), "\(category.standardError)")
  }

  @Test("A seeded sample of a source's own names: the same seed tests the same names, all blocked by that list")
  func sample() async throws {
    let names = (0..<200).map { "t\($0).sample.website" }
    let fixture = try await ApplyFixture.make(names: names)
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.conf")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--conf-file=\(dropIn.path)", "--address=/#/192.0.2.50"], directory: fixture.cli.directory.url
    ) { server in
      let arguments = [
        "test", "--probe", "dns", "--resolver", "127.0.0.1:\(server.port)", "--sample-source", "local",
        "--sample-count", "12", "--seed", "7", "--sample-only", "--json", "--no-save",
      ]
      let first = try #require(try await fixture.cli.runner.run(arguments).standardOutput.data(using: .utf8))
      let second = try #require(try await fixture.cli.runner.run(arguments).standardOutput.data(using: .utf8))
      func hostnames(_ data: Data) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["results"] as? [[String: Any]] ?? []).compactMap { $0["hostname"] as? String }
      }
      let picked = try hostnames(first)
      #expect(picked.count == 12)
      #expect(Set(picked).isSubset(of: Set(names)))
      #expect(try hostnames(second) == picked)
      let object = try #require(try JSONSerialization.jsonObject(with: first) as? [String: Any])
      #expect((object["score"] as? [String: Any])?["blocked"] as? Int == 12)
      #expect((object["categories"] as? [[String: Any]])?.first?["name"] as? String == "Sample")
    }
  }

  @Test("Regression: test --help and docs/testing.md give the one score formula (--help left out leaking)")
  func scoreFormula() async throws {
    let formula = "blocked ÷ (blocked + reachable + leaking)"
    let help = try await CommandRunner().run(["test", "--help"]).standardOutput
    #expect(
      help.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ").contains(formula),
      "\(help)")
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let guide = try String(contentsOf: root.appending(path: "docs/testing.md"), encoding: .utf8)
    #expect(guide.contains("Score: \(formula)"))
  }

  @Test(
    "Regression: test --pihole and hits --pihole take the same sign-in options (test had no --totp); alone they are refused"
  )
  func piholeOptionsShared() async throws {
    let runner = try CommandRunner()
    for command in ["test", "hits"] {
      let help = try await runner.run([command, "--help"]).standardOutput
      for option in ["--pihole <host>", "--pihole-password-file <path>", "--totp <totp>", "--no-password"] {
        #expect(help.contains(option), "\(command) --help lacks \(option)")
      }
    }
    let alone = try await runner.run(["test", "--totp", "123456"])
    #expect(alone.status == 64 && alone.standardError.contains("add --pihole HOST"), "\(alone.standardError)")
  }
}
