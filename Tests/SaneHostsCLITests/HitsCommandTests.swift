import DNS
import Foundation
import TestSupport
import Testing

/// `sanehosts hits` on the logs real servers write: each server from Debian loads SaneHosts' own drop-in
/// (`apply --target`), forwards to a real authoritative `named`, logs its queries to a file; a known mix
/// of queries is sent with SaneHosts' DNS client, and every count of the report is checked against
/// what was sent.
@Suite("hits: real servers' query logs counted against the applied profile", .serialized)
struct HitsCommandTests {
  static let zone = """
    $TTL 60
    @ IN SOA ns.shop.blog. admin.shop.blog. 1 60 60 600 60
    @ IN NS ns
    ns IN A 127.0.0.1
    ads IN A 198.51.100.10
    ads IN AAAA 2001:db8:100::10
    *.ads IN A 198.51.100.11
    ok.ads IN A 198.51.100.12
    tracker IN A 198.51.100.13
    metrics IN A 198.51.100.14
    metrics IN HTTPS 1 . alpn=h2 ipv4hint=198.51.100.14
    clean IN A 198.51.100.15
    track IN CNAME ads

    """

  /// Three lists: the first blocks ads (and so its subdomains) and tracker; the second tracker and
  /// metrics; the third a name nobody asks (dead weight). `ok.ads` is allowed.
  static let lists = [
    "first": ["ads.shop.blog", "tracker.shop.blog"],
    "second": ["tracker.shop.blog", "metrics.shop.blog", "unused.shop.blog"],
    "third": ["never.shop.blog"],
  ]

  /// The mix: (name, type, times), after the harness's own `readiness.invalid` (asked until the server
  /// answers: one query in each log, blocked by no list). 15 queries; the profile blocks 9 of them: ads ×4, x.ads ×2 (through
  /// its parent), tracker ×2, metrics ×1. `ok.ads` is allowed, `clean` and `nothing` are not listed,
  /// `track` is a CNAME to ads (cloaked: not in any list).
  static let mix: [(String, RecordType, Int)] = [
    ("ads.shop.blog", .a, 3), ("ads.shop.blog", .aaaa, 1), ("x.ads.shop.blog", .a, 2), ("tracker.shop.blog", .a, 2),
    ("metrics.shop.blog", .other(65), 1), ("ok.ads.shop.blog", .a, 1), ("clean.shop.blog", .a, 2),
    ("nothing.shop.blog", .a, 1), ("track.shop.blog", .a, 1),
  ]

  static func fixture() async throws -> StoreCLI {
    let cli = try StoreCLI()
    for (name, names) in lists.sorted(by: { $0.key < $1.key }) {
      let file = cli.directory.file("\(name).txt")
      try Data((names.joined(separator: "\n") + "\n").utf8).write(to: file)
      try await cli.ok("sources", "add", file.path, "--name", name)
    }
    try await cli.ok("allow", "add", "=ok.ads.shop.blog")
    try await cli.ok("update", "--quiet")
    return cli
  }

  static func send(_ mix: [(String, RecordType, Int)], port: UInt16) async throws {
    let resolver = try Resolver(server: "127.0.0.1:\(port)")
    for (name, type, times) in mix {
      for _ in 0..<times { _ = try await resolver.query(name, type, timeout: .seconds(3)) }
    }
  }

  /// Waits (up to 5 s) until `log` holds `count` lines that contain `text`: dnsmasq writes its log lines
  /// from a queue.
  static func waitFor(_ text: String, count: Int, in log: URL) async throws {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(5) {
      let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
      if lines.filter({ $0.contains(text) }).count >= count { return }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// The fixture's profile applied to a real dnsmasq (servers-file) that forwards to the zone and logs to
  /// `dnsmasq-queries.log` with `logging` (`--log-queries` or `--log-queries=extra`).
  static func withDnsmasq(
    logging: String, _ body: (StoreCLI, DNSServerProcess, URL) async throws -> Void
  ) async throws {
    let cli = try await Self.fixture()
    defer { cli.remove() }
    let dropIn = cli.directory.file("sanehosts.servers")
    let log = cli.directory.file("dnsmasq-queries.log")
    try Data().write(to: log)
    try await cli.ok("apply", "--target", "dnsmasq", "--output", dropIn.path)
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: cli.directory.url) { upstream in
      try await DNSServerProcess.withDnsmasq(
        arguments: [
          "--servers-file=\(dropIn.path)", "--server=127.0.0.1#\(upstream.port)", logging, "--log-facility=\(log.path)",
        ], directory: cli.directory.url
      ) { server in try await body(cli, server, log) }
    }
  }

  /// The report's JSON, as an object.
  static func hits(_ cli: StoreCLI, _ arguments: String...) async throws -> [String: Any] {
    let result = try await cli.runner.run(["hits", "--json"] + arguments)
    try #require(result.status == 0, "\(result.standardError)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
  }

  /// Every count of the mix: per list, the totals, dead weight.
  static func expectCounts(
    _ report: [String: Any], blockedElsewhere: Int, answered: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(report["queries"] as? Int == 15, "\(report)", sourceLocation: sourceLocation)
    #expect(report["blocked"] as? Int == 9, sourceLocation: sourceLocation)
    #expect(report["distinctNames"] as? Int == 9, sourceLocation: sourceLocation)
    let rows = (report["lists"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
      $0[$1["list"] as? String ?? ""] = $1
    }
    func row(_ list: String) -> [Int] {
      ["size", "queries", "names", "onlyThis"].map { rows[list]?[$0] as? Int ?? -1 }
    }
    #expect(row("first") == [2, 8, 3, 6], "size, queries, names, only this", sourceLocation: sourceLocation)
    #expect(row("second") == [3, 3, 2, 1], sourceLocation: sourceLocation)
    #expect(row("third") == [1, 0, 0, 0], sourceLocation: sourceLocation)
    // ok.ads is let through by the allow rule, against the list that blocks its parent.
    #expect(rows["first"]?["allowedQueries"] as? Int == 1, sourceLocation: sourceLocation)
    #expect(rows["first"]?["allowedBy"] as? [String] == ["=ok.ads.shop.blog"], sourceLocation: sourceLocation)
    #expect(rows["second"]?["allowedQueries"] as? Int == 0, sourceLocation: sourceLocation)
    #expect(report["answeredButBlocked"] as? Int == answered, "\(report)", sourceLocation: sourceLocation)
    #expect(report["blockedElsewhere"] as? Int == blockedElsewhere, sourceLocation: sourceLocation)
    #expect((report["findings"] as? [String: Any])?["skipped"] as? [String: Int] == [:], sourceLocation: sourceLocation)
    #expect(report["clients"] == nil, "no client address without --by-client", sourceLocation: sourceLocation)
  }

  @Test("dnsmasq (log-queries=extra, servers-file): every count; the CNAME-cached leak shows as answered")
  func dnsmasq() async throws {
    try await Self.withDnsmasq(logging: "--log-queries=extra") { cli, server, log in
      try await Self.send(Self.mix, port: server.port)
      try await Self.waitFor("track.shop.blog", count: 2, in: log)
      let report = try await Self.hits(cli, "--log", "dnsmasq:\(log.path)")
      Self.expectCounts(report, blockedElsewhere: 0, answered: 0)
      // Found on dnsmasq 2.90: once the chain track → ads is cached, ads itself is answered from the
      // cache. The log says so (`cached ads.shop.blog is …`): one query answered though blocked.
      try await Self.send([("ads.shop.blog", .a, 1)], port: server.port)
      try await Self.waitFor("cached ads.shop.blog", count: 1, in: log)
      let after = try await Self.hits(cli, "--log", "dnsmasq:\(log.path)")
      #expect(after["answeredButBlocked"] as? Int == 1, "\(after)")
      let text = try await cli.runner.run(["hits", "--log", "dnsmasq:\(log.path)", "--by-client"])
      print(text.standardOutput)
      #expect(text.standardOutput.contains("Dead weight: third: 1 name, 0 hits since"), "\(text.standardOutput)")
      #expect(text.standardOutput.contains("Allowed against first: 1 query let through by =ok.ads.shop.blog."))
      #expect(!text.standardOutput.contains("Safe to remove"), "second blocks metrics alone")
      #expect(text.standardOutput.contains("127.0.0.1"), "--by-client shows the client")
    }
  }

  @Test(
    "dnsmasq under systemd logs to the journal: a real journal file of its real lines, read through journalctl; --since and the unit are passed down"
  )
  func journal() async throws {
    try await Self.withDnsmasq(logging: "--log-queries=extra") { cli, server, log in
      try await Self.send(Self.mix, port: server.port)
      try await Self.waitFor("track.shop.blog", count: 2, in: log)
      let lines = try String(contentsOf: log, encoding: .utf8)
      // The same queries logged three days ago, and now.
      let entries =
        JournalFile.dnsmasqEntries(lines, at: Date().addingTimeInterval(-3 * 86_400))
        + JournalFile.dnsmasqEntries(lines, at: Date())
      let journal = cli.directory.file("copied.journal")
      try await JournalFile.write(entries, to: journal)
      let recent = try await Self.hits(
        cli, "--log", "dnsmasq:journal", "--journal-file", journal.path, "--since", "24h")
      Self.expectCounts(recent, blockedElsewhere: 0, answered: 0)
      #expect((recent["sources"] as? [String])?.first == "dnsmasq:journal (\(journal.path))", "\(recent)")
      let all = try await Self.hits(cli, "--log", "dnsmasq:journal:dnsmasq.service", "--journal-file", journal.path)
      #expect(all["queries"] as? Int == 30 && all["blocked"] as? Int == 18, "both copies: \(all)")
      let other = try await Self.hits(cli, "--log", "dnsmasq:journal:other.service", "--journal-file", journal.path)
      #expect(other["queries"] as? Int == 0)
      let missing = try await cli.runner.run(
        ["hits", "--log", "dnsmasq:journal", "--journal-file", cli.directory.file("none.journal").path])
      #expect(missing.status == 1 && missing.standardError.contains("cannot read the query log dnsmasq:journal"))
      let alone = try await cli.runner.run(["hits", "--log", "dnsmasq:\(log.path)", "--journal-file", journal.path])
      #expect(alone.status == 64 && alone.standardError.contains("--journal-file is read for a --log KIND:journal"))
    }
  }

  @Test("--follow on the journal: each blocked query as journalctl --follow shows the entry")
  func followJournal() async throws {
    try await Self.withDnsmasq(logging: "--log-queries") { cli, server, log in
      let journal = cli.directory.file("followed.journal")
      try await JournalFile.write(
        [JournalFile.Entry(time: Date(), fields: ["MESSAGE": "started", "SYSLOG_IDENTIFIER": "dnsmasq"])], to: journal)
      let output = cli.directory.file("feed.jsonl")
      FileManager.default.createFile(atPath: output.path, contents: nil)
      let errors = cli.directory.file("feed.err")
      FileManager.default.createFile(atPath: errors.path, contents: nil)
      let process = Process()
      process.executableURL = try cli.runner.executable
      process.arguments = ["hits", "--follow", "--json", "--log", "dnsmasq:journal", "--journal-file", journal.path]
      process.environment = ProcessInfo.processInfo.environment.merging(try cli.runner.environment) { $1 }
      process.standardOutput = try FileHandle(forWritingTo: output)
      process.standardError = try FileHandle(forWritingTo: errors)
      try process.run()
      defer {
        process.terminate()
        process.waitUntilExit()
      }
      try await Self.waitFor("Following dnsmasq:journal", count: 1, in: errors)
      try await Self.send([("x.ads.shop.blog", .a, 1), ("clean.shop.blog", .a, 1)], port: server.port)
      try await Self.waitFor("x.ads.shop.blog", count: 2, in: log)
      let entries = JournalFile.dnsmasqEntries(try String(contentsOf: log, encoding: .utf8), at: Date())
      // journalctl starts following at the journal's end once it has opened it: the entries are appended
      // again until the feed shows one (bounded), as a server keeps logging.
      var lines: [[String: Any]] = []
      let start = ContinuousClock.now
      while lines.isEmpty && ContinuousClock.now - start < .seconds(15) {
        try await JournalFile.write(entries, to: journal)
        try await Task.sleep(for: .milliseconds(300))
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        lines = text.split(separator: "\n").compactMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
      }
      let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      #expect(lines.first?["name"] as? String == "x.ads.shop.blog", "\(lines) \(errorText)")
      #expect(!lines.contains { $0["name"] as? String == "clean.shop.blog" })
    }
  }

  @Test("--follow: each blocked query with its lists as dnsmasq logs it, one JSON object a line")
  func follow() async throws {
    try await Self.withDnsmasq(logging: "--log-queries") { cli, server, log in
      let output = cli.directory.file("feed.jsonl")
      FileManager.default.createFile(atPath: output.path, contents: nil)
      let process = Process()
      process.executableURL = try cli.runner.executable
      process.arguments = ["hits", "--follow", "--json", "--log", "dnsmasq:\(log.path)"]
      process.environment = ProcessInfo.processInfo.environment.merging(try cli.runner.environment) { $1 }
      process.standardOutput = try FileHandle(forWritingTo: output)
      let errors = cli.directory.file("feed.err")
      FileManager.default.createFile(atPath: errors.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: errors)
      try process.run()
      defer {
        process.terminate()
        process.waitUntilExit()
      }
      // The feed starts at the log's end: wait until it says it follows (a slow machine takes longer to
      // load the profile), then ask.
      try await Self.waitFor("Following", count: 1, in: errors)
      try await Self.send(
        [("x.ads.shop.blog", .a, 1), ("clean.shop.blog", .a, 1), ("tracker.shop.blog", .aaaa, 1)], port: server.port)
      var lines: [[String: Any]] = []
      let start = ContinuousClock.now
      while lines.count < 2 && ContinuousClock.now - start < .seconds(10) {
        try await Task.sleep(for: .milliseconds(50))
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        lines = text.split(separator: "\n").compactMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
      }
      #expect(lines.map { $0["name"] as? String } == ["x.ads.shop.blog", "tracker.shop.blog"], "\(lines)")
      #expect(lines.last?["lists"] as? [String] == ["first", "second"])
      #expect(lines.last?["type"] as? String == "AAAA")
      #expect(lines.allSatisfy { $0["client"] == nil })
    }
  }

  @Test("--pihole: the Pi-hole's query log through its API, paged on one session, logged out; hidden names skipped")
  func pihole() async throws {
    let cli = try await Self.fixture()
    defer { cli.remove() }
    try await PiholeDouble.with { double in
      let start = Date().timeIntervalSince1970 - 600
      var queries: [PiholeDouble.LoggedQuery] = []
      for (index, (name, status)) in [
        ("ads.shop.blog", "GRAVITY"), ("ads.shop.blog", "GRAVITY"), ("tracker.shop.blog", "GRAVITY"),
        ("metrics.shop.blog", "FORWARDED"), ("clean.shop.blog", "FORWARDED"), ("track.shop.blog", "GRAVITY_CNAME"),
        ("hidden", "FORWARDED"),
      ].enumerated() {
        queries.append(PiholeDouble.LoggedQuery(time: start + Double(index), status: status, domain: name))
      }
      double.log(queries)
      var runner = try cli.runner
      runner.environment["PIHOLE_PASSWORD"] = "secret"
      let result = try await runner.run(["hits", "--json", "--pihole", double.baseURL])
      try #require(result.status == 0, "\(result.standardError)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
      #expect(report["queries"] as? Int == 6 && report["blocked"] as? Int == 4, "\(report)")
      // metrics is in the profile but the Pi-hole answered it: it does not run what was applied.
      #expect(report["answeredButBlocked"] as? Int == 1)
      #expect(report["blockedElsewhere"] as? Int == 1, "the CNAME the Pi-hole blocked")
      #expect(report["server"] as? String == "pihole")
      #expect(
        (report["findings"] as? [String: Any])?["skipped"] as? [String: Int] == [
          "hidden by the Pi-hole's privacy level": 1
        ])
      #expect(double.activeSessions == 0)
    }
  }

  @Test("unbound (log-queries, log-local-actions): every count; without local actions it says it cannot tell")
  func unbound() async throws {
    let cli = try await Self.fixture()
    defer { cli.remove() }
    let dropIn = cli.directory.file("sanehosts-unbound.conf")
    let log = cli.directory.file("unbound-queries.log")
    try await cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: cli.directory.url) { upstream in
      let lines = [
        #"module-config: "iterator""#, #"include: "\#(dropIn.path)""#, #"logfile: "\#(log.path)""#,
        "log-queries: yes", "log-local-actions: yes", "log-replies: yes", "stub-zone:", #"name: "shop.blog""#,
        "stub-addr: 127.0.0.1@\(upstream.port)",
      ]
      try await DNSServerProcess.withUnbound(serverLines: lines, directory: cli.directory.url) { server in
        try await Self.send(Self.mix, port: server.port)
        await server.stop()
        let report = try await Self.hits(cli, "--log", "unbound:\(log.path)")
        // readiness.invalid is answered by unbound's own `invalid.` zone: a local action, in no list.
        Self.expectCounts(report, blockedElsewhere: 1, answered: 0)
        // The same log as `log-local-actions: no` leaves it (the other lines are the same): a block then
        // looks like a cache hit, and the report says it cannot tell.
        let text = try String(contentsOf: log, encoding: .utf8)
        let withoutActions = text.split(separator: "\n").filter { !$0.contains("@") }.joined(separator: "\n")
        let plain = cli.directory.file("unbound-plain.log")
        try Data(withoutActions.utf8).write(to: plain)
        let blind = try await Self.hits(cli, "--log", "unbound:\(plain.path)")
        #expect(blind["queries"] as? Int == 15 && blind["blocked"] as? Int == 9, "\(blind)")
        #expect(blind["answeredButBlocked"] == nil && blind["serverTellsBlocks"] as? Bool == false, "\(blind)")
        let said = try await cli.runner.run(["hits", "--log", "unbound:\(plain.path)"])
        #expect(said.standardOutput.contains("log-local-actions: yes"), "\(said.standardOutput)")
      }
    }
  }

  @Test(
    "BIND named (RPZ, querylog and rpz categories): every count; the CNAME to a blocked name counts for the target's lists"
  )
  func bind() async throws {
    let cli = try await Self.fixture()
    defer { cli.remove() }
    let zone = cli.directory.file("db.sanehosts.rpz")
    let log = cli.directory.file("named-queries.log")
    try await cli.ok("apply", "--target", "bind", "--output", zone.path)
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: cli.directory.url) { upstream in
      try await DNSServerProcess.withNamed(
        zone: zone, forwarder: upstream.port, directory: cli.directory.url, queryLog: log
      ) { server in
        try await Self.send(Self.mix, port: server.port)
        await server.stop()
        let report = try await Self.hits(cli, "--log", "bind:\(log.path)")
        // BIND rewrites the CNAME chain track → ads (its rpz line names the target it matched): on this
        // server track is blocked by the lists that block ads (it was "blocked elsewhere").
        #expect(report["queries"] as? Int == 15 && report["blocked"] as? Int == 10, "\(report)")
        #expect(report["blockedElsewhere"] as? Int == 0 && report["answeredButBlocked"] as? Int == 0, "\(report)")
        let first = (report["lists"] as? [[String: Any]] ?? []).first { $0["list"] as? String == "first" }
        #expect(["size", "queries", "names", "onlyThis"].map { first?[$0] as? Int } == [2, 9, 4, 7], "\(report)")
      }
    }
  }

  /// The mix and two more: a subdomain of the exactly allowed ok.ads, and one of clean under the
  /// subdomains-only deny `*.clean.shop.blog`.
  static let limitsMix = mix + [("sub.ok.ads.shop.blog", .a, 1), ("a.clean.shop.blog", .a, 1)]

  /// The fixture with the subdomains-only deny, applied to `target`'s real server (unbound or named) that
  /// logs its queries and blocks; `body` gets the store and the log once the mix was sent.
  static func withLimits(_ target: String, _ body: (StoreCLI, URL) async throws -> Void) async throws {
    let cli = try await Self.fixture()
    defer { cli.remove() }
    try await cli.ok("deny", "add", "*.clean.shop.blog")
    let log = cli.directory.file("\(target)-queries.log")
    try await DNSServerProcess.withAuthoritative(zoneText: Self.zone, directory: cli.directory.url) { upstream in
      if target == "unbound" {
        let dropIn = cli.directory.file("sanehosts-unbound.conf")
        try await cli.ok("apply", "--target", "unbound", "--output", dropIn.path)
        let lines = [
          #"module-config: "iterator""#, #"include: "\#(dropIn.path)""#, #"logfile: "\#(log.path)""#,
          "log-queries: yes", "log-local-actions: yes", "stub-zone:", #"name: "shop.blog""#,
          "stub-addr: 127.0.0.1@\(upstream.port)",
        ]
        try await DNSServerProcess.withUnbound(serverLines: lines, directory: cli.directory.url) { server in
          try await Self.send(Self.limitsMix, port: server.port)
          await server.stop()
        }
      } else {
        let zone = cli.directory.file("db.sanehosts.rpz")
        try await cli.ok("apply", "--target", "bind", "--output", zone.path)
        try await DNSServerProcess.withNamed(
          zone: zone, forwarder: upstream.port, directory: cli.directory.url, queryLog: log
        ) { server in
          try await Self.send(Self.limitsMix, port: server.port)
          await server.stop()
        }
      }
      try await body(cli, log)
    }
  }

  @Test(
    "Regression: hits counts as the server runs the profile: on unbound an exact allow's subdomain resolves and a subdomains-only deny is left out (it counted both blocked and raised a false “answered although blocked”); RPZ blocks both",
    arguments: ["unbound", "bind"])
  func targetLimits(_ target: String) async throws {
    try await Self.withLimits(target) { cli, log in
      let report = try await Self.hits(cli, "--log", "\(target):\(log.path)")
      #expect(report["queries"] as? Int == 17, "\(report)")
      // unbound: the 9 of the mix; named: those, the CNAME to ads it follows, and both names its zone
      // blocks (a re-block under the exact allow, the subdomains-only deny).
      #expect(report["blocked"] as? Int == (target == "unbound" ? 9 : 12), "\(report)")
      #expect(report["answeredButBlocked"] as? Int == 0, "\(report)")
      // A rule added since the apply: the server still blocks tracker; counted as blocked, named as not
      // applied yet, never as "blocked by the server but not by the profile".
      try await cli.ok("allow", "add", "tracker.shop.blog")
      let pending = try await Self.hits(cli, "--log", "\(target):\(log.path)")
      #expect(pending["blocked"] as? Int == report["blocked"] as? Int, "\(pending)")
      #expect(pending["blockedElsewhere"] as? Int == report["blockedElsewhere"] as? Int, "\(pending)")
      #expect(pending["notAppliedQueries"] as? Int == 2, "\(pending)")
      let names = (pending["notApplied"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
      #expect(names == ["tracker.shop.blog"], "\(pending)")
      let text = try await cli.runner.run(["hits", "--log", "\(target):\(log.path)"])
      #expect(
        text.standardOutput.contains("Allowed in the profile, not applied yet: 2 queries"), "\(text.standardOutput)")
      #expect(text.standardOutput.contains("sanehosts apply --target \(target) --output "), "\(text.standardOutput)")
      // Applied: the server's state has the rule; nothing is pending.
      try await cli.ok(
        "apply", "--target", target, "--output",
        cli.directory.file(target == "unbound" ? "sanehosts-unbound.conf" : "db.sanehosts.rpz").path)
      let applied = try await Self.hits(cli, "--log", "\(target):\(log.path)")
      #expect(applied["notAppliedQueries"] as? Int == 0, "\(applied)")
    }
  }

  @Test(
    "Regression: BIND's query log without the rpz category cannot tell blocks from answers, and says so (it raised 33 false “answered although blocked”)"
  )
  func bindWithoutRPZCategory() async throws {
    try await Self.withLimits("bind") { cli, log in
      let text = try String(contentsOf: log, encoding: .utf8)
      let queriesOnly = text.split(separator: "\n").filter { !$0.contains(": rpz ") }.joined(separator: "\n")
      let plain = cli.directory.file("named-queries-only.log")
      try Data(queriesOnly.utf8).write(to: plain)
      let report = try await Self.hits(cli, "--log", "bind:\(plain.path)")
      #expect(report["queries"] as? Int == 17 && report["answeredButBlocked"] == nil, "\(report)")
      #expect(report["serverTellsBlocks"] as? Bool == false, "\(report)")
      let said = try await cli.runner.run(["hits", "--log", "bind:\(plain.path)"])
      #expect(said.standardOutput.contains("only in the rpz category"), "\(said.standardOutput)")
      #expect(!said.standardOutput.contains("Answered although"), "\(said.standardOutput)")
    }
  }
}

@Suite("hits --replica: one report per replica of the fleet")
struct HitsReplicaTests {
  @Test("Each replica's log counted as it blocks (a transfer replica: the policy zone, subdomains too); a report each")
  func perReplica() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = cli.directory.file("list.txt")
    try Data("ads.website\n".utf8).write(to: list)
    try await cli.ok("sources", "add", list.path, "--name", "ads")
    try await cli.ok("update", "--quiet")
    try await cli.ok("fleet", "add", "bind2", "--resolver", "10.0.0.3", "--kind", "bind", "--primary", "10.0.0.1")
    try await cli.ok("fleet", "add", "unbound2", "--resolver", "10.0.0.4", "--kind", "unbound", "--primary", "10.0.0.1")
    let bindLog = cli.directory.file("bind2.log")
    try Data(
      """
      27-Nov-2026 05:34:05.884 queries: info: client @0x7fd6640e2098 10.0.0.9#44648 (x.ads.website): query: x.ads.website IN A +E(0)K (10.0.0.3)
      27-Nov-2026 05:34:05.884 rpz: info: client @0x7fd6640e2098 10.0.0.9#44648 (x.ads.website): rpz QNAME NXDOMAIN rewrite x.ads.website/A/IN via *.ads.website.sanehosts.rpz
      27-Nov-2026 05:34:06.832 queries: info: client @0x7fd6640e2098 10.0.0.9#58301 (plain.website): query: plain.website IN A +E(0)K (10.0.0.3)

      """.utf8
    ).write(to: bindLog)
    let unboundLog = cli.directory.file("unbound2.log")
    try Data(
      """
      [1795757560] unbound[26643:0] info: 10.0.0.9 ads.website. A IN
      [1795757560] unbound[26643:0] info: 10.0.0.9 y.ads.website. AAAA IN
      [1795757561] unbound[26643:0] info: 10.0.0.9 plain.website. A IN

      """.utf8
    ).write(to: unboundLog)
    let result = try await cli.runner.run([
      "hits", "--replica", "bind2=\(bindLog.path)", "--replica", "unbound2=\(unboundLog.path)", "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let reports = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    #expect(reports.map { $0["replica"] as? String } == ["bind2", "unbound2"])
    let bind = try #require(reports[0]["report"] as? [String: Any])
    let unbound = try #require(reports[1]["report"] as? [String: Any])
    #expect(bind["queries"] as? Int == 2 && bind["blocked"] as? Int == 1, "\(bind)")
    // unbound fed by transfer holds the policy zone: the subdomain is blocked too, as BIND's rules say.
    #expect(unbound["queries"] as? Int == 3 && unbound["blocked"] as? Int == 2, "\(unbound)")
    #expect(unbound["server"] as? String == "bind" && bind["server"] as? String == "bind")
    let text = try await cli.ok("hits", "--replica", "bind2=\(bindLog.path)")
    #expect(text.hasPrefix("== bind2 ==\n"), "\(text)")

    for (arguments, message) in [
      (["hits", "--replica", "nobody=/x"], "names no replica of the fleet (bind2, unbound2)"),
      (["hits", "--replica", "bind2"], "give its query log, --replica bind2=KIND:PATH"),
      (["hits", "--replica", "bind2=\(bindLog.path)", "--log", "bind:\(bindLog.path)"], "leave out --log"),
    ] {
      let refused = try await cli.runner.run(arguments)
      #expect(refused.status != 0 && refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
    }
  }
}
