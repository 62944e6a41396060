import Apply
import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("DNS server targets")
struct ServerTargetTests {
  @Test("Raw values, as the command line takes them")
  func rawValues() {
    #expect(
      ServerTarget.allCases.map(\.rawValue) == [
        "dnsmasq", "dnsmasq-hosts", "unbound", "bind", "pdns-recursor", "knot-resolver",
      ])
    #expect(ServerTarget(rawValue: "dnsmasq-hosts") == .dnsmasqHosts)
  }

  @Test("Default outputs; the hosts file stays out of /etc/dnsmasq.d, which Debian reads as configuration")
  func defaultOutputs() {
    #expect(ServerTarget.dnsmasq.defaultOutput == "/etc/sanehosts/dnsmasq.servers")
    #expect(ServerTarget.dnsmasqHosts.defaultOutput == "/etc/sanehosts/dnsmasq.hosts")
    #expect(ServerTarget.unbound.defaultOutput == "/etc/unbound/unbound.conf.d/sanehosts.conf")
    #expect(ServerTarget.bind.defaultOutput == "/var/lib/bind/db.sanehosts.rpz")
    #expect(ServerTarget.pdnsRecursor.defaultOutput == "/etc/powerdns/sanehosts.rpz")
    #expect(ServerTarget.knotResolver.defaultOutput == "/etc/knot-resolver/sanehosts.rpz")
  }

  @Test("PowerDNS Recursor and Knot Resolver: a Lua loader beside the zone, quoted for Lua; the others have none")
  func loaders() throws {
    #expect(
      ServerTarget.pdnsRecursor.loaderPath(output: "/etc/powerdns/sanehosts.rpz") == "/etc/powerdns/sanehosts.lua")
    #expect(ServerTarget.knotResolver.loaderPath(output: "/srv/zone") == "/srv/zone.lua")
    #expect(ServerTarget.bind.loaderPath(output: "/x.rpz") == nil && ServerTarget.unbound.loader(output: "/x") == nil)
    let pdns = try #require(ServerTarget.pdnsRecursor.loader(output: "/etc/powerdns/sanehosts.rpz"))
    #expect(pdns.contains(#"rpzFile("/etc/powerdns/sanehosts.rpz", {policyName="sanehosts"})"#))
    let knot = try #require(ServerTarget.knotResolver.loader(output: #"/odd "dir"\z.rpz"#))
    #expect(knot.contains(#"policy.rpz(policy.DENY, "/odd \"dir\"\\z.rpz", true)"#), "\(knot)")
    #expect(ServerTarget.knotResolver.instructions(output: "/k/s.rpz").hasPrefix(#"dofile("/k/s.lua")"#))
    #expect(ServerTarget.pdnsRecursor.isRPZ && ServerTarget.knotResolver.isRPZ && !ServerTarget.dnsmasq.isRPZ)
  }

  @Test("Each target renders its format, subdomains of blocked names compressed away")
  func rendering() async throws {
    let list = try await Compiler().compile(
      [.text("ads.website\nsub.ads.website\ntracker.blog\n", name: "t")], rules: RuleSet())
    func body(_ target: ServerTarget) async throws -> [String] {
      let text = String(decoding: try await target.render(list, title: "Test", date: sampleDate), as: UTF8.self)
      #expect(text.contains("Title: Test"))
      return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix(";") }
    }
    // Many names a server= line: dnsmasq reads such a file three times faster.
    #expect(try await body(.dnsmasq) == ["server=/ads.website/tracker.blog/"])
    #expect(
      try await body(.dnsmasqHosts) == [
        "0.0.0.0 ads.website", ":: ads.website", "0.0.0.0 sub.ads.website", ":: sub.ads.website",
        "0.0.0.0 tracker.blog", ":: tracker.blog",
      ])
    #expect(
      try await body(.unbound) == [
        "server:", #"local-zone: "ads.website." always_null"#, #"local-zone: "tracker.blog." always_null"#,
      ])
    let zone = try await body(.bind)
    #expect(zone.first == "$TTL 300")
    #expect(
      zone.suffix(4) == [
        "ads.website CNAME .", "*.ads.website CNAME .", "tracker.blog CNAME .", "*.tracker.blog CNAME .",
      ])
  }

  @Test(
    "Every target's drop-in, with exceptions and subdomains-only blocks, passes its server's own checker and holds only lines its format allows",
    arguments: ServerTarget.allCases)
  func checkedAndStrict(target: ServerTarget) async throws {
    try await TemporaryDirectory.with { directory in
      let rules = RuleSet(
        allow: [
          RuleSet.Rule(kind: .exact, pattern: "ok.ads.website", origin: "t"),
          RuleSet.Rule(kind: .wildcard, pattern: "tracker.blog", origin: "t"),
        ],
        deny: [RuleSet.Rule(kind: .wildcard, pattern: "below.website", origin: "t")])
      let list = try await Compiler().compile(
        [.text("0.0.0.0 ads.website\n0.0.0.0 x.ads.website\n0.0.0.0 tracker.blog\n0.0.0.0 deep.a.b.website\n")],
        rules: rules)
      let bytes = try await target.render(list, title: "t\ninclude: \"/x\"", date: sampleDate)
      let path = directory.file("sanehosts.\(target.fileExtension)").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(OutputGrammar.violations(in: text, format: target.format).isEmpty, "\(target):\n\(text)")
      let check = await target.check(path, runner: ProcessRunner())
      #expect(check.passed, "\(target): \(check.summary)")
    }
  }

  @Test("Rendering is the same bytes for the same list and date")
  func deterministic() async throws {
    let list = try await sampleList()
    for target in ServerTarget.allCases {
      let first = try await target.render(list, title: "T", date: sampleDate)
      #expect(try await target.render(list, title: "T", date: sampleDate) == first)
    }
  }
}

/// The rendered drop-ins loaded by the real servers, answering queries on 127.0.0.1.
@Suite("Real DNS servers load the drop-ins", .serialized)
struct RealServerTests {
  @Test(
    "dnsmasq servers-file: blocked names and their subdomains answer NXDOMAIN for every record type (HTTPS included)"
  )
  func dnsmasq() async throws {
    try await TemporaryDirectory.with { directory in
      let dropIn = try await writeSample(.dnsmasq, in: directory.url)
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--servers-file=\(dropIn)", "--address=/allowed.blog/192.0.2.7"], directory: directory.url
      ) { server in
        let dig = try Dig(port: server.port)
        for name in ["ads.website", "x.ads.website", "tracker.blog", "deep.x.metrics.website"] {
          for type in ["A", "AAAA", "HTTPS", "TXT"] {
            #expect(try await dig.status(name, type) == "NXDOMAIN", "\(name) \(type)\n\(server.log())")
          }
        }
        #expect(try await dig.query("allowed.blog", "A") == ["192.0.2.7"])
        // The parent of a blocked name is not blocked (no upstream here: refused, not NXDOMAIN).
        #expect(try await dig.status("metrics.website", "A") == "REFUSED")
      }
    }
  }

  @Test("dnsmasq addn-hosts: exactly the listed names answer 0.0.0.0 and ::, subdomains do not")
  func dnsmasqHosts() async throws {
    try await TemporaryDirectory.with { directory in
      let hosts = try await writeSample(.dnsmasqHosts, in: directory.url)
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--addn-hosts=\(hosts)", "--address=/allowed.blog/192.0.2.7"], directory: directory.url
      ) { server in
        let dig = try Dig(port: server.port)
        for name in sampleNames {
          #expect(try await dig.query(name, "A") == ["0.0.0.0"], "\(name) A\n\(server.log())")
          #expect(try await dig.query(name, "AAAA") == ["::"], "\(name) AAAA")
        }
        // A hosts file names exact names: a subdomain of a listed name is not blocked.
        #expect(try await dig.query("x.ads.website", "A") == [])
        #expect(try await dig.query("x.ads.website", "AAAA") == [])
        #expect(try await dig.query("allowed.blog", "A") == ["192.0.2.7"])
      }
    }
  }

  @Test("unbound: blocked names and their subdomains answer 0.0.0.0 and ::")
  func unbound() async throws {
    try await TemporaryDirectory.with { directory in
      let dropIn = try await writeSample(.unbound, in: directory.url)
      try await DNSServerProcess.withUnbound(
        serverLines: [#"local-data: "allowed.blog. A 192.0.2.7""#, #"include: "\#(dropIn)""#],
        directory: directory.url
      ) { server in
        let dig = try Dig(port: server.port)
        for name in ["ads.website", "x.ads.website", "tracker.blog", "deep.x.metrics.website"] {
          #expect(try await dig.query(name, "A") == ["0.0.0.0"], "\(name) A\n\(server.log())")
          #expect(try await dig.query(name, "AAAA") == ["::"], "\(name) AAAA")
        }
        #expect(try await dig.query("allowed.blog", "A") == ["192.0.2.7"])
      }
    }
  }

  @Test("BIND: named-checkzone loads the response-policy zone")
  func bind() async throws {
    try await TemporaryDirectory.with { directory in
      let zone = try await writeSample(.bind, in: directory.url)
      let checker = try RequiredTool.path("named-checkzone", package: "bind9-utils")
      let result = try await ProcessRunner().run(checker, ["sanehosts.rpz", zone])
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      #expect(result.standardOutput.contains("OK"))
    }
  }
}
