import BlockerTest
import DNS
import Foundation
import TestSupport
import Testing

/// The interop matrix: real DNS servers from Debian, each serving SaneHosts' own output (`apply --target`)
/// or blocking the way real blockers do, with a catch-all that answers A and AAAA for every other name.
/// `sanehosts test --probe dns` must classify exactly the blocked names as blocked and the others as
/// reachable, and give the same report on every run. The blocking modes and their verdicts are written
/// down in docs/test-report.md ("Verdict rules").
@Suite("Interop matrix: sanehosts test against real DNS servers", .serialized)
struct InteropMatrixTests {
  /// The names the profile blocks: every Ads domain and ten Analytics domains of the registry.
  static let blocked: Set<String> = {
    let tested = Registry.builtIn.tested
    return Set(
      tested.filter { $0.category == "Ads" }.map(\.hostname)
        + tested.filter { $0.category == "Analytics" }.prefix(10).map(\.hostname))
  }()

  /// A profile of `blocked`, applied by each case.
  static func fixture() async throws -> ApplyFixture {
    try await ApplyFixture.make(names: blocked.sorted())
  }

  /// Whether a name is blocked by a format that blocks subdomains too.
  static func covered(_ name: String) -> Bool { TestCommandTests.covered(name, by: blocked) }

  /// One run's report as comparable lines: `hostname outcome reason addresses`, controls first.
  static func lines(_ object: [String: Any]) -> [String] {
    let rows = (object["controls"] as? [[String: Any]] ?? []) + (object["results"] as? [[String: Any]] ?? [])
    return rows.map { row in
      let addresses = (row["addresses"] as? [String] ?? []).joined(separator: ",")
      return "\(row["hostname"] ?? "") \(row["outcome"] ?? "") \(row["reason"] ?? "") [\(addresses)]"
    }
  }

  /// Runs `sanehosts test` `runs` times against `port`; every report must be identical. Returns the
  /// first, outcome and reason by hostname.
  static func consistentOutcomes(
    _ cli: StoreCLI, port: UInt16, runs: Int, extra: [String] = [], log: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [String: (outcome: String, reason: String)] {
    var first: [String]?
    var outcomes: [String: (String, String)] = [:]
    for run in 0..<runs {
      let result = try await cli.runner.run(
        ["test", "--probe", "dns", "--resolver", "127.0.0.1:\(port)", "--json", "--no-save"] + extra)
      try #require(
        result.status == 0, "run \(run + 1): \(result.standardError)\n\(log())", sourceLocation: sourceLocation)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
        sourceLocation: sourceLocation)
      let lines = Self.lines(object)
      if let first {
        #expect(lines == first, "run \(run + 1) differs from run 1", sourceLocation: sourceLocation)
      } else {
        first = lines
        for row in (object["controls"] as? [[String: Any]] ?? []) + (object["results"] as? [[String: Any]] ?? []) {
          outcomes[row["hostname"] as? String ?? ""] = (row["outcome"] as? String ?? "", row["reason"] as? String ?? "")
        }
      }
    }
    return outcomes
  }

  /// Checks every registry domain: blocked exactly when `isBlocked`, with `blockedReason`; the others
  /// (controls included) reachable with a catch-all address.
  static func expectClassified(
    _ outcomes: [String: (outcome: String, reason: String)], isBlocked: (String) -> Bool,
    blockedReason: (String) -> Bool,
    reachableReason: Set<String> = [
      DNSServerProcess.catchAllV4, DNSServerProcess.catchAllV6,
    ], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let registry = Registry.builtIn
    #expect(outcomes.count == registry.tested.count + registry.controls.count, sourceLocation: sourceLocation)
    var wrong: [String] = []
    for domain in registry.controls + registry.tested {
      guard let (outcome, reason) = outcomes[domain.hostname] else {
        wrong.append("\(domain.hostname): missing")
        continue
      }
      if !domain.isControl && isBlocked(domain.hostname) {
        if outcome != "blocked" || !blockedReason(reason) { wrong.append("\(domain.hostname): \(outcome) \(reason)") }
      } else if outcome != "reachable" || !reachableReason.contains(reason) {
        wrong.append("\(domain.hostname): \(outcome) \(reason)")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) misclassified: \(wrong.prefix(10))", sourceLocation: sourceLocation)
  }

  @Test(
    "Regression: dnsmasq answering A (0.0.0.0 or a routable address) and refusing AAAA gives the same exact report on 8 runs"
  )
  func answersARefusesAAAA() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    // A hosts file and no upstream: A comes from the file, AAAA is refused (dnsmasq has nowhere to ask).
    let hosts = cli.directory.file("a-only.hosts")
    let registry = Registry.builtIn
    let text = (registry.controls + registry.tested).map { domain in
      "\(Self.blocked.contains(domain.hostname) ? "0.0.0.0" : DNSServerProcess.catchAllV4) \(domain.hostname)\n"
    }.joined()
    try Data(text.utf8).write(to: hosts)
    try await DNSServerProcess.withDnsmasq(arguments: ["--addn-hosts=\(hosts.path)"], directory: cli.directory.url) {
      server in
      let outcomes = try await Self.consistentOutcomes(cli, port: server.port, runs: 8, log: server.log())
      Self.expectClassified(
        outcomes, isBlocked: { Self.blocked.contains($0) },
        blockedReason: { $0 == "sinkhole 0.0.0.0 (AAAA: REFUSED)" }, reachableReason: [DNSServerProcess.catchAllV4])
    }
  }

  @Test("dnsmasq, apply --target dnsmasq: NXDOMAIN for the names and their subdomains")
  func dnsmasq() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.conf")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--conf-file=\(dropIn.path)"] + DNSServerProcess.catchAllArguments,
      directory: fixture.cli.directory.url
    ) { server in
      let outcomes = try await Self.consistentOutcomes(fixture.cli, port: server.port, runs: 5, log: server.log())
      Self.expectClassified(outcomes, isBlocked: Self.covered, blockedReason: { $0 == "NXDOMAIN" })
      // apply --verify: every applied name (29, fewer than the default sample of 50) blocked, controls reachable.
      let verified = try await fixture.cli.run(
        "apply", "--target", "dnsmasq", "--output", dropIn.path, "--verify", "127.0.0.1:\(server.port)")
      #expect(verified.status == 0, "\(verified.standardError)")
      #expect(
        verified.standardError.contains("verified: 29/29 sampled names blocked, controls reachable"),
        "\(verified.standardError)")
      let json = try await fixture.cli.runner.run(
        [
          "apply", "--target", "dnsmasq", "--output", dropIn.path, "--verify", "127.0.0.1:\(server.port)", "--json",
          "--verify-sample", "5",
        ])
      let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
      let verification = try #require(object?["verification"] as? [String: Any], "\(json.standardOutput)")
      #expect(verification["passed"] as? Bool == true && verification["sampled"] as? Int == 5)
      #expect(object?["target"] as? String == "dnsmasq")
    }
  }

  @Test("apply --verify on the hosts file, through the system resolver in a private mount namespace")
  func verifyHostsFile() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let hosts = fixture.cli.directory.file("hosts")
    try Data("127.0.0.1 localhost\n192.0.2.1 example.com wikipedia.org debian.org\n".utf8).write(to: hosts)
    let script = """
      set -e
      mount --bind "$FAKE_HOSTS" /etc/hosts
      # Never the machine's own file: stop unless /etc/hosts is now the temporary one.
      [ "$(stat -c %d:%i /etc/hosts)" = "$(stat -c %d:%i "$FAKE_HOSTS")" ] || exit 99
      status=0
      "$SANEHOSTS" apply --hosts-file /etc/hosts --verify || status=$?
      echo "first=$status"
      """
    let (status, output) = try await MountNamespace.run(
      script,
      environment: [
        "FAKE_HOSTS": hosts.path, "SANEHOSTS": try CommandRunner().executable.path,
        "SANEHOSTS_HOME": fixture.cli.dataDirectory.path, "TERM": "dumb",
      ])
    #expect(status == 0, "\(output)")
    #expect(output.contains("verified: 29/29 sampled names blocked, controls reachable"), "\(output)")
    #expect(output.contains("first=0"), "\(output)")
  }

  @Test(
    "A name the user's allow rule keeps out is reachable, and the text, JSON and history say which rule; a blocked control keeps its warning"
  )
  func ruleAndControls() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("allow", "add", "doubleclick.net")
    try await fixture.cli.ok("update", "--quiet")
    let dropIn = fixture.cli.directory.file("sanehosts.conf")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    // debian.org blocked too: a control domain the server over-blocks.
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--conf-file=\(dropIn.path)", "--address=/debian.org/#"] + DNSServerProcess.catchAllArguments,
      directory: fixture.cli.directory.url
    ) { server in
      let resolver = "127.0.0.1:\(server.port)"
      let object = try #require(
        try await fixture.cli.json("test", "--probe", "dns", "--resolver", resolver, "--json") as? [String: Any])
      let results = try #require(object["results"] as? [[String: Any]])
      let doubleclick = try #require(results.first { $0["hostname"] as? String == "ad.doubleclick.net" })
      #expect(doubleclick["outcome"] as? String == "reachable")
      #expect(doubleclick["rule"] as? String == "allowed by your rule doubleclick.net")
      #expect(doubleclick["listedBy"] as? [String] == ["local"])
      let warning = "1 of 3 control domains blocked (debian.org): the blocker over-blocks"
      #expect(object["scoreWarning"] as? String == warning)
      let text = try await fixture.cli.ok("test", "--probe", "dns", "--resolver", resolver)
      #expect(text.contains("allowed by your rule doubleclick.net; listed by local"), "\(text)")
      #expect(text.contains("⚠ \(warning)"), "\(text)")
      let quiet = try await fixture.cli.ok("test", "--probe", "dns", "--resolver", resolver, "--quiet")
      #expect(quiet.contains("(warning: \(warning))"), "\(quiet)")
      let history = try await fixture.cli.ok("history", "list")
      #expect(history.contains("⚠ \(warning)"), "\(history)")
    }
  }

  @Test("Bad input: a resolver that is not IP[:port], a port where nothing listens: a clear error, no score")
  func badResolver() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let text = try await cli.run("test", "--probe", "dns", "--resolver", "dns.website")
    #expect(text.status == 1 && text.standardError.contains("“dns.website” is not a DNS server address"))
    let port = try FreePort.forDNS()
    // --resolver alone means --probe dns.
    let closed = try await cli.run("test", "--resolver", "127.0.0.1:\(port)")
    #expect(closed.status == 1, "\(closed.standardError)")
    #expect(
      closed.standardError.contains("No control domain resolved through the DNS server 127.0.0.1:\(port)"),
      "\(closed.standardError)")
    #expect(closed.standardError.contains("connection refused (nothing listens on port \(port))"))
    #expect(!closed.standardOutput.contains("Score:"))
    let mixed = try await cli.run("test", "--probe", "system", "--resolver", "127.0.0.1:53")
    #expect(mixed.standardError.contains("--resolver is for --probe dns, not --probe system."))
    let verify = try await cli.run("apply", "--target", "bind", "--output", "/tmp/x.rpz", "--verify", "localhost:53")
    #expect(verify.status != 0 && verify.standardError.contains("--verify takes the server as IP or IP:port"))
  }

  @Test("dnsmasq, apply --target dnsmasq-hosts: 0.0.0.0 and :: for exactly the names listed")
  func dnsmasqHosts() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.hosts")
    try await fixture.cli.ok("apply", "--target", "dnsmasq-hosts", "--output", dropIn.path)
    try await DNSServerProcess.withDnsmasq(
      arguments: ["--addn-hosts=\(dropIn.path)"] + DNSServerProcess.catchAllArguments,
      directory: fixture.cli.directory.url
    ) { server in
      let outcomes = try await Self.consistentOutcomes(fixture.cli, port: server.port, runs: 5, log: server.log())
      Self.expectClassified(
        outcomes, isBlocked: { Self.blocked.contains($0) }, blockedReason: { $0 == "sinkhole 0.0.0.0, ::" })
    }
  }

  /// Unbound's catch-all: every name redirected to the test addresses (more specific zones win).
  static let unboundCatchAll = [
    #"local-zone: "." redirect"#, #"local-data: ". 60 IN A \#(DNSServerProcess.catchAllV4)""#,
    #"local-data: ". 60 IN AAAA \#(DNSServerProcess.catchAllV6)""#,
  ]

  /// Runs unbound with SaneHosts' drop-in, its `always_null` zones turned into `kind`.
  func unbound(kind: String, blockedReason: @escaping (String) -> Bool) async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts-unbound.conf")
    try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    let text = try String(contentsOf: dropIn, encoding: .utf8)
    try Data(text.replacingOccurrences(of: " always_null", with: " \(kind)").utf8).write(to: dropIn)
    try await DNSServerProcess.withUnbound(
      serverLines: Self.unboundCatchAll + [#"include: "\#(dropIn.path)""#], directory: fixture.cli.directory.url
    ) { server in
      let outcomes = try await Self.consistentOutcomes(fixture.cli, port: server.port, runs: 5, log: server.log())
      Self.expectClassified(outcomes, isBlocked: Self.covered, blockedReason: blockedReason)
    }
  }

  @Test("unbound, apply --target unbound (always_null): 0.0.0.0 and ::")
  func unboundNull() async throws {
    try await unbound(kind: "always_null", blockedReason: { $0 == "sinkhole 0.0.0.0, ::" })
  }

  @Test("unbound always_nxdomain: NXDOMAIN")
  func unboundNXDomain() async throws {
    try await unbound(kind: "always_nxdomain", blockedReason: { $0 == "NXDOMAIN" })
  }

  @Test("unbound always_nodata: NODATA for A and AAAA")
  func unboundNoData() async throws {
    try await unbound(kind: "always_nodata", blockedReason: { $0 == "NODATA" })
  }

  @Test("unbound always_refuse: REFUSED for A and AAAA")
  func unboundRefused() async throws {
    try await unbound(kind: "always_refuse", blockedReason: { $0 == "REFUSED" })
  }

  @Test("dnsmasq with a block-page address: blocked with --block-page, reachable without")
  func blockPage() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let page = "192.0.2.99"
    // A block page for IPv4 and :: for IPv6 (with the page alone, AAAA falls through to the catch-all and the
    // name is rightly reachable over IPv6).
    let arguments =
      Self.blocked.sorted().flatMap { ["--address=/\($0)/\(page)", "--address=/\($0)/::"] }
      + DNSServerProcess.catchAllArguments
    try await DNSServerProcess.withDnsmasq(arguments: arguments, directory: cli.directory.url) { server in
      let outcomes = try await Self.consistentOutcomes(
        cli, port: server.port, runs: 5, extra: ["--block-page", page], log: server.log())
      Self.expectClassified(outcomes, isBlocked: Self.covered, blockedReason: { $0 == "sinkhole \(page), ::" })
      let without = try await Self.consistentOutcomes(cli, port: server.port, runs: 1)
      #expect(without.values.allSatisfy { $0.outcome == "reachable" })
    }
  }

  @Test("BIND named, apply --target bind: the response-policy zone gives NXDOMAIN")
  func bind() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("db.sanehosts.rpz")
    try await fixture.cli.ok("apply", "--target", "bind", "--output", zone.path)
    try await DNSServerProcess.withCatchAll(directory: fixture.cli.directory.url) { catchAll in
      try await DNSServerProcess.withNamed(zone: zone, forwarder: catchAll.port, directory: fixture.cli.directory.url) {
        server in
        let outcomes = try await Self.consistentOutcomes(fixture.cli, port: server.port, runs: 5, log: server.log())
        Self.expectClassified(outcomes, isBlocked: Self.covered, blockedReason: { $0 == "NXDOMAIN" })
      }
    }
  }

  @Test(
    "PowerDNS Recursor, apply --target pdns-recursor: rpzFile loads the zone (NXDOMAIN); --reload blocks a new name at once"
  )
  func pdnsRecursor() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("sanehosts.rpz")
    let loader = fixture.cli.directory.file("sanehosts.lua")
    try await fixture.cli.ok("apply", "--target", "pdns-recursor", "--output", zone.path)
    let lua = try String(contentsOf: loader, encoding: .utf8)
    #expect(lua.contains(#"rpzFile("\#(zone.path)", {policyName="sanehosts"})"#), "\(lua)")
    try await DNSServerProcess.withCatchAll(directory: fixture.cli.directory.url) { catchAll in
      try await DNSServerProcess.withRecursor(
        luaConfig: loader, forwarder: catchAll.port, directory: fixture.cli.directory.url
      ) { server in
        let outcomes = try await Self.consistentOutcomes(fixture.cli, port: server.port, runs: 5, log: server.log())
        Self.expectClassified(outcomes, isBlocked: Self.covered, blockedReason: { $0 == "NXDOMAIN" })
        // A name answered (and cached) before it is blocked is blocked right after apply --reload.
        let socket = DNSServerProcess.recursorSocketDirectory(port: server.port, directory: fixture.cli.directory.url)
        try await Self.expectReloadBlocks(
          fixture, server: server,
          extra: ["--target", "pdns-recursor", "--output", zone.path, "--reload-socket", socket.path])
      }
    }
  }

  @Test(
    "Knot Resolver, apply --target knot-resolver: policy.rpz loads the zone (NXDOMAIN); --reload through the control socket"
  )
  func knotResolver() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("sanehosts.rpz")
    let loader = fixture.cli.directory.file("sanehosts.lua")
    try await fixture.cli.ok("apply", "--target", "knot-resolver", "--output", zone.path)
    #expect(try String(contentsOf: loader, encoding: .utf8).contains("policy.rpz(policy.DENY, \"\(zone.path)\", true)"))
    try await DNSServerProcess.withCatchAll(directory: fixture.cli.directory.url) { catchAll in
      try await DNSServerProcess.withKnot(
        luaConfig: loader, forwarder: catchAll.port, directory: fixture.cli.directory.url
      ) { server in
        let outcomes = try await Self.consistentOutcomes(fixture.cli, port: server.port, runs: 5, log: server.log())
        Self.expectClassified(outcomes, isBlocked: Self.covered, blockedReason: { $0 == "NXDOMAIN" })
        let socket = DNSServerProcess.knotControlSocket(
          port: server.port, pid: server.pid, directory: fixture.cli.directory.url)
        try await Self.expectReloadBlocks(
          fixture, server: server,
          extra: ["--target", "knot-resolver", "--output", zone.path, "--reload-socket", socket.path],
          watchesZone: true)
      }
    }
  }

  /// Asks for a new name (reachable, now cached), adds it to the list, updates and applies with --reload:
  /// the name must be blocked on the next query. Then another new name applied without --reload fails
  /// --verify (exit 5, "not reloaded"), and passes once reloaded.
  static func expectReloadBlocks(
    _ fixture: ApplyFixture, server: DNSServerProcess, extra: [String], watchesZone: Bool = false
  ) async throws {
    try await reloadBlocks(fixture, server: server, extra: extra)
    let later = "later-blocked.example.org"
    try Data((blocked.sorted() + ["newly-blocked.example.org", later]).joined(separator: "\n").utf8).write(
      to: fixture.list)
    try await fixture.cli.ok("update", "--quiet")
    let target = Array(extra.prefix(4))
    // Knot Resolver watches the zone and loads it by itself within tens of milliseconds: whether a
    // verification right after the write sees it is a race, so only --reload is checked there.
    if !watchesZone { try await expectNotReloaded(fixture, server: server, target: target, later: later) }
    let reloaded = try await fixture.cli.runner.run(
      ["apply", "--reload", "--verify", "127.0.0.1:\(server.port)", "--verify-sample", "100"] + extra)
    #expect(reloaded.status == 0, "\(reloaded.standardError)")
    #expect(reloaded.standardError.contains("verified: 31/31 sampled names blocked"), "\(reloaded.standardError)")
  }

  /// Applies without --reload: --verify names the new name and says the server was not reloaded.
  static func expectNotReloaded(_ fixture: ApplyFixture, server: DNSServerProcess, target: [String], later: String)
    async throws
  {
    let unloaded = try await fixture.cli.runner.run(
      ["apply", "--verify", "127.0.0.1:\(server.port)", "--verify-sample", "100"] + target)
    #expect(unloaded.status == 5, "\(unloaded.standardError)")
    #expect(
      unloaded.standardError.contains("verification failed: 30/31 sampled names blocked, controls reachable"),
      "\(unloaded.standardError)")
    #expect(
      unloaded.standardError.contains("not blocked: \(later) (reachable: 192.0.2.1): the server was not reloaded"),
      "\(unloaded.standardError)")
  }

  static func reloadBlocks(_ fixture: ApplyFixture, server: DNSServerProcess, extra: [String]) async throws {
    let name = "newly-blocked.example.org"
    let resolver = try Resolver(server: "127.0.0.1:\(server.port)")
    let before = try await resolver.query(name, .a, timeout: .seconds(2))
    #expect(before.addresses.map(\.description) == [DNSServerProcess.catchAllV4], "\(before)")
    try Data((blocked.sorted() + [name]).joined(separator: "\n").utf8).write(to: fixture.list)
    // No --force: the list file changed within the second of the first update, and is read again.
    try await fixture.cli.ok("update", "--quiet")
    let applied = try await fixture.cli.runner.run(["apply", "--reload"] + extra)
    #expect(applied.status == 0, "\(applied.standardError)\n\(server.log())")
    #expect(applied.standardError.contains("Reload:"), "\(applied.standardError)")
    let reply = try await resolver.query(name, .a, timeout: .seconds(2))
    #expect(reply.responseCode == .nxDomain, "\(reply)\n\(server.log())")
  }
}
