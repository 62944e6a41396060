import DNS
import Foundation
import TestSupport
import Testing

/// `sanehosts test --probe dns` against real servers in front of a real authoritative upstream: a blocked
/// name whose HTTPS record still carries its real address hint, and a name whose CNAME leads to a blocked
/// name, are `leaking` (not blocked), with the chain; where the server closes them, they are blocked.
@Suite("sanehosts test: leaks via HTTPS records and CNAME chains, on real servers", .serialized)
struct LeakVerdictTests {
  /// The names tested (category Shop) besides the three controls.
  static let tested = ["ads.shop.blog", "track.shop.blog", "x.wild.shop.blog"]

  /// A store with the matrix's list and rules, the tested names in its registry.
  static func fixture() async throws -> ApplyFixture {
    let fixture = try await SemanticsMatrixTests.fixture()
    let added = try await fixture.cli.runner.run(["registry", "add"] + tested + ["--category", "Shop"])
    try #require(added.status == 0, "\(added.standardError)")
    return fixture
  }

  /// One run of the Shop category, one probe at a time: each tested name's outcome, reason and chain.
  static func run(_ cli: StoreCLI, port: UInt16, log: () -> String) async throws -> [String: (String, String, [String])]
  {
    let result = try await cli.runner.run([
      "test", "--probe", "dns", "--resolver", "127.0.0.1:\(port)", "--category", "Shop", "--concurrency", "1",
      "--json", "--no-save",
    ])
    try #require(result.status == 0, "\(result.standardError)\n\(log())")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    var outcomes: [String: (String, String, [String])] = [:]
    for row in object["results"] as? [[String: Any]] ?? [] {
      outcomes[row["hostname"] as? String ?? ""] =
        (row["outcome"] as? String ?? "", row["reason"] as? String ?? "", row["chain"] as? [String] ?? [])
    }
    return outcomes
  }

  /// Starts the upstream (the shop zone and the controls' zones), then the server under test.
  static func withUpstream<R>(_ fixture: ApplyFixture, _ body: (DNSServerProcess) async throws -> R) async throws -> R {
    try await DNSServerProcess.withAuthoritative(
      zoneText: SemanticsMatrixTests.zone, moreZones: DNSServerProcess.controlZones,
      directory: fixture.cli.directory.url, body)
  }

  @Test(
    "Regression: dnsmasq addn-hosts answers 0.0.0.0 for a blocked name but forwards its HTTPS query: leaking via the HTTPS record; a CNAME to it leaks too"
  )
  func dnsmasqHosts() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.hosts")
    try await fixture.cli.ok("apply", "--target", "dnsmasq-hosts", "--output", dropIn.path)
    try await Self.withUpstream(fixture) { upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--addn-hosts=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)"],
        directory: fixture.cli.directory.url
      ) { server in
        let outcomes = try await Self.run(fixture.cli, port: server.port, log: server.log)
        let ads = try #require(outcomes["ads.shop.blog"])
        #expect(ads.0 == "leaking", "\(ads)")
        #expect(ads.1.hasPrefix("leaks via HTTPS record") && ads.1.contains("198.51.100.10"), "\(ads)")
        let track = try #require(outcomes["track.shop.blog"])
        #expect(track.0 == "leaking" && track.1.hasPrefix("leaks via CNAME"), "\(track)")
        #expect(track.2 == ["track.shop.blog", "ads.shop.blog"])
        #expect(outcomes["x.wild.shop.blog"]?.0 == "reachable")
        // The text and JUnit say the same.
        let junit = fixture.cli.directory.file("report.xml")
        let text = try await fixture.cli.ok(
          "test", "--probe", "dns", "--resolver", "127.0.0.1:\(server.port)", "--category", "Shop", "--no-save",
          "--export", "junit", junit.path)
        #expect(text.contains("leaking 2"), "\(text)")
        #expect(text.contains("CNAME chain track.shop.blog → ads.shop.blog"), "\(text)")
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("type=\"leaking\""))
        // why --resolver: the server's answer and its chain beside the profile's verdict.
        let why = try await fixture.cli.ok("why", "track.shop.blog", "--resolver", "127.0.0.1:\(server.port)")
        #expect(
          why.contains("127.0.0.1:\(server.port) answers: leaking (leaks via CNAME")
            && why.contains("CNAME chain track.shop.blog → ads.shop.blog"), "\(why)")
        let json = try #require(
          try await fixture.cli.json("why", "ads.shop.blog", "--resolver", "127.0.0.1:\(server.port)", "--json")
            as? [String: Any])
        let answer = try #require((json["names"] as? [[String: Any]])?.first?["answer"] as? [String: Any])
        #expect(answer["outcome"] as? String == "leaking", "\(answer)")
      }
    }
  }

  @Test(
    "dnsmasq servers-file: the blocked name and its HTTPS record blocked; the CNAME to it leaks (listed by the profile)"
  )
  func dnsmasq() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.servers")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await Self.withUpstream(fixture) { upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--servers-file=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)"],
        directory: fixture.cli.directory.url
      ) { server in
        // One run: afterwards dnsmasq answers ads.shop.blog from the chain it cached (see SemanticsMatrixTests).
        let outcomes = try await Self.run(fixture.cli, port: server.port, log: server.log)
        #expect(outcomes["ads.shop.blog"]?.0 == "blocked", "\(String(describing: outcomes["ads.shop.blog"]))")
        let track = try #require(outcomes["track.shop.blog"])
        #expect(track.0 == "leaking" && track.1.contains("ads.shop.blog is listed by local"), "\(track)")
      }
    }
  }

  @Test("unbound: NODATA for the HTTPS record (blocked); the CNAME to a blocked name leaks, the same on every run")
  func unbound() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts-unbound.conf")
    try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    try await Self.withUpstream(fixture) { upstream in
      var lines = [#"local-zone: "test." nodefault"#, #"module-config: "iterator""#, #"include: "\#(dropIn.path)""#]
      for zone in [DNSServerProcess.shopZone] + DNSServerProcess.controlZones.keys.sorted() {
        lines += ["stub-zone:", #"name: "\#(zone)""#, "stub-addr: 127.0.0.1@\(upstream.port)"]
      }
      try await DNSServerProcess.withUnbound(serverLines: lines, directory: fixture.cli.directory.url) { server in
        let first = try await Self.run(fixture.cli, port: server.port, log: server.log)
        #expect(first["ads.shop.blog"]?.0 == "blocked", "\(String(describing: first["ads.shop.blog"]))")
        let track = try #require(first["track.shop.blog"])
        #expect(track.0 == "leaking" && track.1.hasPrefix("leaks via CNAME"), "\(track)")
        for _ in 0..<2 {
          let again = try await Self.run(fixture.cli, port: server.port, log: server.log)
          #expect(again.mapValues { "\($0.0) \($0.1)" } == first.mapValues { "\($0.0) \($0.1)" })
        }
      }
    }
  }

  @Test(
    "The system resolver and a hosts file: A and AAAA blocked, but the DNS server answers the HTTPS records, and the report says so (private mount namespace)"
  )
  func hostsFileHTTPSRecords() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    // Every name the run asks for is in the file: getaddrinfo never leaves this machine.
    let hosts = fixture.cli.directory.file("hosts")
    try Data(
      """
      127.0.0.1 localhost
      0.0.0.0 ads.shop.blog track.shop.blog
      192.0.2.1 x.wild.shop.blog example.com wikipedia.org debian.org

      """.utf8
    ).write(to: hosts)
    try await Self.withUpstream(fixture) { upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--server=127.0.0.1#\(upstream.port)"], directory: fixture.cli.directory.url
      ) { server in
        let script = """
          set -e
          mount --bind "$FAKE_HOSTS" /etc/hosts
          # Never the machine's own file: stop unless /etc/hosts is now the temporary one.
          [ "$(stat -c %d:%i /etc/hosts)" = "$(stat -c %d:%i "$FAKE_HOSTS")" ] || exit 99
          "$SANEHOSTS" test --probe system --category Shop --https-records-from "$SERVER" --json --no-save
          """
        let (status, output) = try await MountNamespace.run(
          script,
          environment: [
            "FAKE_HOSTS": hosts.path, "SANEHOSTS": try CommandRunner().executable.path,
            "SANEHOSTS_HOME": fixture.cli.dataDirectory.path, "SERVER": "127.0.0.1:\(server.port)", "TERM": "dumb",
          ])
        #expect(status == 0, "\(output)")
        let start = try #require(output.firstIndex(of: "{"), "\(output)")
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any], "\(output)")
        let results = object["results"] as? [[String: Any]] ?? []
        let ads = try #require(results.first { $0["hostname"] as? String == "ads.shop.blog" })
        #expect(ads["outcome"] as? String == "leaking", "\(ads)")
        #expect((ads["reason"] as? String)?.contains("address hint 198.51.100.10") == true, "\(ads)")
        #expect(results.first { $0["hostname"] as? String == "x.wild.shop.blog" }?["outcome"] as? String == "reachable")
        let warnings = object["warnings"] as? [String] ?? []
        #expect(
          warnings.contains {
            $0.hasPrefix("a hosts file blocks A and AAAA only") && $0.contains("2 of 2 blocked names leak")
          },
          "\(warnings)")
      }
    }
  }

  @Test("BIND named (RPZ): the blocked name, its HTTPS record and the CNAME to it are all blocked")
  func bind() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("db.sanehosts.rpz")
    try await fixture.cli.ok("apply", "--target", "bind", "--output", zone.path)
    try await Self.withUpstream(fixture) { upstream in
      try await DNSServerProcess.withNamed(zone: zone, forwarder: upstream.port, directory: fixture.cli.directory.url) {
        server in
        let outcomes = try await Self.run(fixture.cli, port: server.port, log: server.log)
        #expect(outcomes["ads.shop.blog"]?.0 == "blocked")
        #expect(outcomes["track.shop.blog"]?.0 == "blocked", "\(String(describing: outcomes["track.shop.blog"]))")
        #expect(outcomes["x.wild.shop.blog"]?.0 == "reachable")
      }
    }
  }
}
