import DNS
import Foundation
import TestSupport
import Testing

/// The semantics matrix: each real server from Debian loads SaneHosts' own drop-in (`apply --target`) and
/// forwards to a real authoritative `named` that serves A, AAAA, HTTPS and CNAME records. For a blocked
/// name, its subdomain, an exact allow under a blocked parent, a subdomain allow, a wildcard allow, the
/// HTTPS query of a blocked name, a CNAME to a blocked name and a name added then reloaded, the server's
/// answer must be what SaneHosts says it applied: `why` for the target's format, and `apply`'s own notes
/// where a server cannot close a leak.
@Suite("Semantics matrix: what real servers answer is what SaneHosts applied", .serialized)
struct SemanticsMatrixTests {
  /// The upstream's zone. Every address is one the tests look for: a blocked name must never show it.
  static let zone = """
    $TTL 60
    @ IN SOA ns.shop.blog. admin.shop.blog. 1 60 60 600 60
    @ IN NS ns
    ns IN A 127.0.0.1
    @ IN A 198.51.100.1
    ads IN A 198.51.100.10
    ads IN AAAA 2001:db8:100::10
    ads IN HTTPS 1 . alpn=h2,h3 ipv4hint=198.51.100.10
    *.ads IN A 198.51.100.11
    *.ads IN HTTPS 1 . alpn=h2 ipv4hint=198.51.100.11
    keep.ads IN A 198.51.100.12
    deep.keep.ads IN A 198.51.100.13
    open.ads IN A 198.51.100.14
    deep.open.ads IN A 198.51.100.15
    wild IN A 198.51.100.16
    x.wild IN A 198.51.100.17
    track IN CNAME ads
    newly IN A 198.51.100.18
    inlist.ads IN A 198.51.100.19
    cdn IN A 198.51.100.20
    x.y.cdn IN A 198.51.100.21
    y.cdn IN A 198.51.100.22
    sub IN A 198.51.100.23
    x.sub IN A 198.51.100.24

    """

  /// The list: a blocked parent, a listed subdomain of it (compressed away), a parent with a wildcard allow,
  /// and the list's own exception under the blocked parent (`@@||name^`, read as AdGuard Home does).
  static let listed = [
    "ads.shop.blog", "x.ads.shop.blog", "wild.shop.blog", "@@||inlist.ads.shop.blog^", "cdn.shop.blog",
    "||*.sub.shop.blog^",
  ]
  /// Allow rules: exact, subdomains, wildcard; and an exact one two labels below its blocked parent (the
  /// name between them must stay blocked: BIND stopped matching it with the parent's `*.` record).
  static let allowRules = ["=keep.ads.shop.blog", "open.ads.shop.blog", "*.wild.shop.blog", "=x.y.cdn.shop.blog"]

  /// What a case expects of the server's answer.
  enum Expected: Equatable, CustomStringConvertible {
    /// No address of the zone and no HTTPS record.
    case blocked
    /// The zone's answer, with this address.
    case real(String)

    var description: String {
      switch self {
      case .blocked: "blocked"
      case .real(let address): "real \(address)"
      }
    }
  }

  /// How a target treats each kind of name: the table of rule kinds and record types in docs/applying.md.
  struct Semantics {
    /// Whether entries block subdomains (all but dnsmasq-hosts).
    var covers = true
    /// Whether an exact allow keeps the name's subdomains blocked (unbound's transparent zone does not).
    var exactKeepsSubdomainsBlocked = true
    /// Whether a blocked name's HTTPS record stays hidden.
    var blocksHTTPS = true
    /// Whether a name whose CNAME leads to a blocked name is blocked.
    var blocksCNAMETargets = false
    /// Whether a list's subdomains-only block (`||*.sub^`) is written (dnsmasq, RPZ); never the name itself.
    var blocksSubdomainsOnly = true
  }

  /// The cases: (name, type, expected).
  static func cases(_ semantics: Semantics) -> [(String, RecordType, Expected)] {
    let https = RecordType.other(65)
    let covered: (String) -> Expected = { semantics.covers ? .blocked : .real($0) }
    return [
      ("ads.shop.blog", .a, .blocked),
      ("ads.shop.blog", .aaaa, .blocked),
      ("ads.shop.blog", https, semantics.blocksHTTPS ? .blocked : .real("HTTPS")),
      ("x.ads.shop.blog", .a, .blocked),
      ("y.ads.shop.blog", .a, covered("198.51.100.11")),
      ("y.ads.shop.blog", https, semantics.covers ? .blocked : .real("HTTPS")),
      ("keep.ads.shop.blog", .a, .real("198.51.100.12")),
      (
        "deep.keep.ads.shop.blog", .a,
        semantics.covers && semantics.exactKeepsSubdomainsBlocked ? .blocked : .real("198.51.100.13")
      ),
      ("open.ads.shop.blog", .a, .real("198.51.100.14")),
      ("inlist.ads.shop.blog", .a, .real("198.51.100.19")),
      ("x.y.cdn.shop.blog", .a, .real("198.51.100.21")),
      ("y.cdn.shop.blog", .a, covered("198.51.100.22")),
      ("deep.open.ads.shop.blog", .a, .real("198.51.100.15")),
      ("wild.shop.blog", .a, .blocked),
      ("x.wild.shop.blog", .a, .real("198.51.100.17")),
      ("shop.blog", .a, .real("198.51.100.1")),
      ("track.shop.blog", .a, semantics.blocksCNAMETargets ? .blocked : .real("198.51.100.10")),
      ("sub.shop.blog", .a, .real("198.51.100.23")),
      ("x.sub.shop.blog", .a, semantics.blocksSubdomainsOnly ? .blocked : .real("198.51.100.24")),
    ]
  }

  /// The answer in a word: `real ADDRESS` (or `real HTTPS` for an HTTPS record), else `blocked (RCODE …)`.
  static func observe(_ resolver: Resolver, _ name: String, _ type: RecordType) async throws -> String {
    let reply = try await resolver.query(name, type, timeout: .seconds(3))
    let zoneAddresses = reply.answers.compactMap(\.data.address).map(\.description).filter {
      $0.hasPrefix("198.51.100.") || $0.hasPrefix("2001:db8:100:")
    }
    if let address = zoneAddresses.first { return "real \(address)" }
    if reply.answers.contains(where: { $0.type.rawValue == 65 }) { return "real HTTPS" }
    let addresses = reply.answers.compactMap(\.data.address).map(\.description)
    return "blocked (\(reply.responseCode) \(addresses.joined(separator: ",")))"
  }

  /// Asks every case and collects the ones whose answer is not the expected one.
  static func mismatches(port: UInt16, semantics: Semantics) async throws -> [String] {
    let resolver = try Resolver(server: "127.0.0.1:\(port)")
    var wrong: [String] = []
    for (name, type, expected) in cases(semantics) {
      let observed = try await observe(resolver, name, type)
      let matches =
        switch expected {
        case .blocked: observed.hasPrefix("blocked")
        case .real(let address): observed == "real \(address)"
        }
      if !matches { wrong.append("\(name) \(type): expected \(expected), got \(observed)") }
    }
    return wrong
  }

  /// Asks `why` about every name of the cases (A queries; the CNAME is the server's business, not the
  /// list's) and compares the output `format`'s verdict with the server's answer: blocked exactly when
  /// `why` says the format writes the name or a parent that covers it.
  static func whyMismatches(_ cli: StoreCLI, port: UInt16, format: String) async throws -> [String] {
    let names = Set(cases(Semantics()).filter { $0.1 == .a && $0.0 != "track.shop.blog" }.map(\.0)).sorted()
    let result = try await cli.runner.run(["why", "--json"] + names)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
      "\(result.standardError)")
    let explanations = try #require(object["names"] as? [[String: Any]])
    let resolver = try Resolver(server: "127.0.0.1:\(port)")
    var wrong: [String] = []
    for explanation in explanations {
      let name = explanation["name"] as? String ?? ""
      let outputs = explanation["outputs"] as? [[String: Any]] ?? []
      let output = outputs.first { $0["format"] as? String == format }
      let written = output?["written"] as? String ?? "?"
      let whyBlocks = written == "asItself" || written == "coveredByParent"
      let observed = try await observe(resolver, name, .a)
      if whyBlocks != observed.hasPrefix("blocked") {
        wrong.append(
          "\(name): why says \(format) \(written) (\(output?["reason"] as? String ?? "")), the server \(observed)")
      }
    }
    #expect(explanations.count == names.count)
    return wrong
  }

  /// Asks `why` first (the CNAME case fills dnsmasq's cache), then every case of the server: both must
  /// agree with what was applied.
  static func expectMatrix(
    _ fixture: ApplyFixture, _ server: DNSServerProcess, format: String, semantics: Semantics, file: URL,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let why = try await whyMismatches(fixture.cli, port: server.port, format: format)
    #expect(why.isEmpty, "\(why)", sourceLocation: sourceLocation)
    let wrong = try await mismatches(port: server.port, semantics: semantics)
    let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    #expect(wrong.isEmpty, "\(wrong)\n\(text)\n\(server.log())", sourceLocation: sourceLocation)
  }

  /// A store with the list and the allow rules, updated.
  static func fixture() async throws -> ApplyFixture {
    let fixture = try await ApplyFixture.make(names: listed)
    let added = try await fixture.cli.runner.run(["allow", "add"] + allowRules)
    try #require(added.status == 0, "\(added.standardError)")
    try await fixture.cli.ok("update", "--quiet")
    return fixture
  }

  /// Adds `newly.shop.blog` to the list after the server has answered (and cached) it, applies with
  /// `--reload` (and `extra`), and expects it blocked at once; the reload's report says what ran.
  static func expectReloaded(_ fixture: ApplyFixture, port: UInt16, apply: [String], log: () -> String) async throws {
    let resolver = try Resolver(server: "127.0.0.1:\(port)")
    #expect(try await observe(resolver, "newly.shop.blog", .a) == "real 198.51.100.18")
    try Data((listed + ["newly.shop.blog"]).joined(separator: "\n").utf8).write(to: fixture.list)
    try await fixture.cli.ok("update", "--quiet")
    let applied = try await fixture.cli.runner.run(["apply", "--reload"] + apply)
    #expect(applied.status == 0, "\(applied.standardError)\n\(log())")
    // BIND loads a zone again in the background after SIGHUP or `rndc reload`: the answer may take a moment.
    let start = ContinuousClock.now
    var after = try await observe(resolver, "newly.shop.blog", .a)
    while !after.hasPrefix("blocked") && ContinuousClock.now - start < .seconds(10) {
      try await Task.sleep(for: .milliseconds(20))
      after = try await observe(resolver, "newly.shop.blog", .a)
    }
    #expect(
      after.hasPrefix("blocked"), "newly.shop.blog after the reload: \(after)\n\(applied.standardError)\n\(log())")
    print("reload of \(apply[1]): blocked after \(ContinuousClock.now - start)")
  }

  @Test("dnsmasq (servers-file): every case, every record type; SIGHUP reloads; CNAME chains noted")
  func dnsmasq() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.servers")
    let applied = try await fixture.cli.run("apply", "--target", "dnsmasq", "--output", dropIn.path)
    #expect(applied.status == 0, "\(applied.standardError)")
    #expect(applied.standardError.contains("servers-file=\(dropIn.path)"), "\(applied.standardError)")
    #expect(applied.standardError.contains("CNAME"), "the CNAME leak is named: \(applied.standardError)")
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: fixture.cli.directory.url) {
      upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--servers-file=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)"],
        directory: fixture.cli.directory.url
      ) { server in
        try await Self.expectMatrix(fixture, server, format: "dnsmasq", semantics: Semantics(), file: dropIn)
        // Found on the real dnsmasq 2.90 (every form: server=, local=, address=): once the CNAME chain
        // track → ads is cached, the blocked name itself is answered from the cache until its TTL ends.
        // apply names it.
        let resolver = try Resolver(server: "127.0.0.1:\(server.port)")
        #expect(try await Self.observe(resolver, "ads.shop.blog", .a) == "real 198.51.100.10")
        #expect(applied.standardError.contains("from its cache"), "\(applied.standardError)")
        try await Self.expectReloaded(
          fixture, port: server.port,
          apply: ["--target", "dnsmasq", "--output", dropIn.path, "--reload-pid", "\(server.pid)"], log: server.log)
      }
    }
  }

  @Test("dnsmasq addn-hosts: exact names only; the HTTPS leak and CNAME chains are named by apply")
  func dnsmasqHosts() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.hosts")
    let applied = try await fixture.cli.run("apply", "--target", "dnsmasq-hosts", "--output", dropIn.path)
    #expect(applied.status == 0, "\(applied.standardError)")
    #expect(applied.standardError.contains("HTTPS"), "the HTTPS leak is named: \(applied.standardError)")
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: fixture.cli.directory.url) {
      upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--addn-hosts=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)"],
        directory: fixture.cli.directory.url
      ) { server in
        try await Self.expectMatrix(
          fixture, server, format: "hosts",
          semantics: Semantics(covers: false, blocksHTTPS: false, blocksSubdomainsOnly: false), file: dropIn)
        try await Self.expectReloaded(
          fixture, port: server.port,
          apply: ["--target", "dnsmasq-hosts", "--output", dropIn.path, "--reload-pid", "\(server.pid)"],
          log: server.log)
      }
    }
  }

  @Test("unbound: always_null and transparent zones; an exact allow also opens its subdomains (named by why)")
  func unbound() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts-unbound.conf")
    try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: fixture.cli.directory.url) {
      upstream in
      let lines = [
        #"local-zone: "test." nodefault"#, #"module-config: "iterator""#, #"include: "\#(dropIn.path)""#,
        "stub-zone:", #"name: "shop.blog""#, "stub-addr: 127.0.0.1@\(upstream.port)",
      ]
      try await DNSServerProcess.withUnbound(serverLines: lines, directory: fixture.cli.directory.url) { server in
        try await Self.expectMatrix(
          fixture, server, format: "unbound",
          semantics: Semantics(exactKeepsSubdomainsBlocked: false, blocksSubdomainsOnly: false), file: dropIn)
        try await Self.expectReloaded(
          fixture, port: server.port,
          apply: ["--target", "unbound", "--output", dropIn.path, "--reload-pid", "\(server.pid)"], log: server.log)
      }
    }
  }

  @Test("BIND named (RPZ): passthru exceptions, the names between them re-blocked; CNAME targets blocked")
  func bind() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("db.sanehosts.rpz")
    try await fixture.cli.ok("apply", "--target", "bind", "--output", zone.path)
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: fixture.cli.directory.url) {
      upstream in
      try await DNSServerProcess.withNamed(zone: zone, forwarder: upstream.port, directory: fixture.cli.directory.url) {
        server in
        try await Self.expectMatrix(
          fixture, server, format: "rpz", semantics: Semantics(blocksCNAMETargets: true), file: zone)
        try await Self.expectReloaded(
          fixture, port: server.port,
          apply: ["--target", "bind", "--output", zone.path, "--reload-pid", "\(server.pid)"],
          log: server.log)
      }
    }
  }

  @Test("PowerDNS Recursor (RPZ): the same cases; rec_control reloads")
  func pdnsRecursor() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("sanehosts.rpz")
    let loader = fixture.cli.directory.file("sanehosts.lua")
    try await fixture.cli.ok("apply", "--target", "pdns-recursor", "--output", zone.path)
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: fixture.cli.directory.url) {
      upstream in
      try await DNSServerProcess.withRecursor(
        luaConfig: loader, forwarder: upstream.port, directory: fixture.cli.directory.url
      ) { server in
        try await Self.expectMatrix(
          fixture, server, format: "rpz", semantics: Semantics(blocksCNAMETargets: true), file: zone)
        let socket = DNSServerProcess.recursorSocketDirectory(port: server.port, directory: fixture.cli.directory.url)
        try await Self.expectReloaded(
          fixture, port: server.port,
          apply: ["--target", "pdns-recursor", "--output", zone.path, "--reload-socket", socket.path], log: server.log)
      }
    }
  }

  @Test("Knot Resolver (RPZ): a pass-through goes on to the forwarder; the control socket reloads")
  func knotResolver() async throws {
    let fixture = try await Self.fixture()
    defer { fixture.cli.remove() }
    let zone = fixture.cli.directory.file("sanehosts.rpz")
    let loader = fixture.cli.directory.file("sanehosts.lua")
    let applied = try await fixture.cli.run("apply", "--target", "knot-resolver", "--output", zone.path)
    #expect(applied.standardError.contains("CNAME"), "the CNAME leak is named: \(applied.standardError)")
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: fixture.cli.directory.url) {
      upstream in
      try await DNSServerProcess.withKnot(
        luaConfig: loader, forwarder: upstream.port, directory: fixture.cli.directory.url
      ) { server in
        try await Self.expectMatrix(fixture, server, format: "rpz", semantics: Semantics(), file: zone)
        let socket = DNSServerProcess.knotControlSocket(
          port: server.port, pid: server.pid, directory: fixture.cli.directory.url)
        try await Self.expectReloaded(
          fixture, port: server.port,
          apply: ["--target", "knot-resolver", "--output", zone.path, "--reload-socket", socket.path], log: server.log)
      }
    }
  }
}

@Suite("apply --verify checks what the apply changed", .serialized)
struct VerifyChangedTests {
  @Test(
    "Regression: a name just denied is always verified; dnsmasq loading the drop-in as configuration is not reloaded by SIGHUP and --verify fails (exit 5); as its servers-file it is"
  )
  func deniedNameVerified() async throws {
    // 300 names: a random sample of 50 would rarely hold the one just added.
    let fixture = try await ApplyFixture.make(names: (0..<300).map { "n\($0).blocked.website" })
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.servers")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    for option in ["--conf-file", "--servers-file"] {
      try await DNSServerProcess.withDnsmasq(
        arguments: ["\(option)=\(dropIn.path)"] + DNSServerProcess.catchAllArguments,
        directory: fixture.cli.directory.url
      ) { server in
        let name = "newly-denied\(option.dropFirst(2)).website"
        try await fixture.cli.ok("deny", "add", name)
        let applied = try await fixture.cli.runner.run([
          "apply", "--target", "dnsmasq", "--output", dropIn.path, "--reload", "--reload-pid", "\(server.pid)",
          "--verify", "127.0.0.1:\(server.port)",
        ])
        #expect(applied.standardError.contains("Reload: sent SIGHUP"), "\(applied.standardError)")
        if option == "--conf-file" {
          #expect(applied.status == 5, "\(applied.standardError)")
          #expect(
            applied.standardError.contains("not blocked: \(name) (reachable: \(DNSServerProcess.catchAllV4))"),
            "\(applied.standardError)")
        } else {
          #expect(applied.status == 0, "\(applied.standardError)")
          #expect(applied.standardError.contains("verified: 50/50 sampled names blocked"), "\(applied.standardError)")
        }
      }
    }
  }
}

extension VerifyChangedTests {
  @Test(
    "Regression: a name just allowed under a blocked parent is verified let through; written without a reload it is still blocked (exit 5)"
  )
  func allowedNameVerified() async throws {
    let fixture = try await SemanticsMatrixTests.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts.servers")
    try await fixture.cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await DNSServerProcess.withAuthoritative(
      zoneText: SemanticsMatrixTests.zone, moreZones: DNSServerProcess.controlZones,
      directory: fixture.cli.directory.url
    ) { upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--servers-file=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)"],
        directory: fixture.cli.directory.url
      ) { server in
        let apply = ["apply", "--target", "dnsmasq", "--output", dropIn.path, "--verify", "127.0.0.1:\(server.port)"]
        try await fixture.cli.ok("allow", "add", "=deep.keep.ads.shop.blog")
        let unloaded = try await fixture.cli.runner.run(apply)
        #expect(unloaded.status == 5, "\(unloaded.standardError)")
        #expect(unloaded.standardError.contains("0/1 allowed names let through"), "\(unloaded.standardError)")
        #expect(
          unloaded.standardError.contains("allowed but blocked: deep.keep.ads.shop.blog (NXDOMAIN)"),
          "\(unloaded.standardError)")
        try await fixture.cli.ok("allow", "add", "=y.ads.shop.blog")
        let reloaded = try await fixture.cli.runner.run(apply + ["--reload", "--reload-pid", "\(server.pid)"])
        #expect(reloaded.status == 0, "\(reloaded.standardError)")
        // Both allow rules since the state the server last confirmed loading, not only this apply's.
        #expect(reloaded.standardError.contains("2/2 allowed names let through"), "\(reloaded.standardError)")
      }
    }
  }
}

extension VerifyChangedTests {
  @Test(
    "A name taken out of the list is verified unblocked: unbound not reloaded still answers 0.0.0.0 (exit 5); reloaded, it resolves"
  )
  func removedNameVerified() async throws {
    let fixture = try await SemanticsMatrixTests.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts-unbound.conf")
    try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    try await Self.withUnbound(fixture, dropIn: dropIn) { server in
      let apply = ["apply", "--target", "unbound", "--output", dropIn.path, "--verify", "127.0.0.1:\(server.port)"]
      func list(without removed: Set<String>) throws {
        let names = SemanticsMatrixTests.listed.filter { !removed.contains($0) }
        try Data(names.joined(separator: "\n").utf8).write(to: fixture.list)
      }
      try list(without: ["wild.shop.blog"])
      try await fixture.cli.ok("update", "--quiet")
      let unloaded = try await fixture.cli.runner.run(apply)
      #expect(unloaded.status == 5, "\(unloaded.standardError)")
      #expect(unloaded.standardError.contains("0/1 removed names unblocked"), "\(unloaded.standardError)")
      #expect(
        unloaded.standardError.contains("removed but blocked: wild.shop.blog (sinkhole 0.0.0.0"),
        "\(unloaded.standardError)")
      try list(without: ["wild.shop.blog", "cdn.shop.blog"])
      try await fixture.cli.ok("update", "--quiet")
      let reloaded = try await fixture.cli.runner.run(apply + ["--reload", "--reload-pid", "\(server.pid)"])
      #expect(reloaded.status == 0, "\(reloaded.standardError)")
      // Both names taken out since the state the server last confirmed loading.
      #expect(reloaded.standardError.contains("2/2 removed names unblocked"), "\(reloaded.standardError)")
    }
  }
}

extension VerifyChangedTests {
  /// unbound in front of the authoritative upstream, loading `dropIn`; `body` gets the server.
  static func withUnbound(
    _ fixture: ApplyFixture, dropIn: URL, _ body: (DNSServerProcess) async throws -> Void
  ) async throws {
    try await DNSServerProcess.withAuthoritative(
      zoneText: SemanticsMatrixTests.zone, moreZones: DNSServerProcess.controlZones,
      directory: fixture.cli.directory.url
    ) { upstream in
      var lines = [#"local-zone: "test." nodefault"#, #"module-config: "iterator""#, #"include: "\#(dropIn.path)""#]
      for zone in [DNSServerProcess.shopZone] + DNSServerProcess.controlZones.keys.sorted() {
        lines += ["stub-zone:", #"name: "\#(zone)""#, "stub-addr: 127.0.0.1@\(upstream.port)"]
      }
      try await DNSServerProcess.withUnbound(serverLines: lines, directory: fixture.cli.directory.url, body)
    }
  }

  @Test(
    "Regression: a drop-in written without a reload is not verified by a later apply with nothing to write (it printed “verified”, exit 0): “written, not loaded”, exit 5; --reload reloads the unchanged file, and only then does it verify"
  )
  func writtenNotLoaded() async throws {
    let fixture = try await SemanticsMatrixTests.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts-unbound.conf")
    try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    try await Self.withUnbound(fixture, dropIn: dropIn) { server in
      let verify = ["apply", "--target", "unbound", "--output", dropIn.path, "--verify", "127.0.0.1:\(server.port)"]
      // The server loaded the file at start: a verification confirms it.
      let first = try await fixture.cli.runner.run(verify)
      #expect(first.status == 0, "\(first.standardError)")
      try Data(SemanticsMatrixTests.listed.filter { $0 != "wild.shop.blog" }.joined(separator: "\n").utf8)
        .write(to: fixture.list)
      try await fixture.cli.ok("update", "--quiet")
      try await fixture.cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
      let ledger = try String(contentsOf: fixture.cli.directory.file("data/applied.json"), encoding: .utf8)
      #expect(ledger.contains("\"loadedSHA256\""), "\(ledger)")
      let unloaded = try await fixture.cli.runner.run(verify)
      #expect(unloaded.status == 5, "\(unloaded.standardError)")
      #expect(unloaded.standardError.contains("nothing to write"), "\(unloaded.standardError)")
      #expect(unloaded.standardError.contains("written, not loaded: \(dropIn.path)"), "\(unloaded.standardError)")
      #expect(
        unloaded.standardError.contains("removed but blocked: wild.shop.blog (sinkhole 0.0.0.0"),
        "\(unloaded.standardError)")
      #expect(!unloaded.standardError.contains("\nverified"), "\(unloaded.standardError)")
      let reloaded = try await fixture.cli.runner.run(verify + ["--reload", "--reload-pid", "\(server.pid)"])
      #expect(reloaded.status == 0, "\(reloaded.standardError)\n\(server.log())")
      #expect(reloaded.standardError.contains("the file was unchanged: reloaded as asked"), "\(reloaded.standardError)")
      #expect(reloaded.standardError.contains("1/1 removed names unblocked"), "\(reloaded.standardError)")
      // Confirmed now: the next verification has no change left to check, and passes.
      let again = try await fixture.cli.runner.run(verify)
      #expect(again.status == 0, "\(again.standardError)")
      #expect(!again.standardError.contains("removed names"), "\(again.standardError)")
    }
  }

  @Test(
    "Regression: --reload-pid of a process that is not the server is refused before anything is written (it had sent SIGHUP to a web server and recorded the file loaded)"
  )
  func reloadPidOfAnotherProcess() async throws {
    let fixture = try await SemanticsMatrixTests.fixture()
    defer { fixture.cli.remove() }
    let dropIn = fixture.cli.directory.file("sanehosts-unbound.conf")
    try await ForeignProcess.with { pid, isRunning in
      for dryRun in [["--dry-run"], []] {
        let refused = try await fixture.cli.runner.run(
          ["apply", "--target", "unbound", "--output", dropIn.path, "--reload", "--reload-pid", "\(pid)"] + dryRun)
        #expect(refused.status == 1, "\(refused.standardError)")
        #expect(refused.standardError.contains("Process \(pid) is sleep, not unbound"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: dropIn.path))
        #expect(isRunning())
      }
    }
  }
}
