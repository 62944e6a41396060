import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("Rendering every output format")
struct RendererTests {
  let source = """
    0.0.0.0 ads.example.com
    0.0.0.0 sub.ads.example.com
    0.0.0.0 tracker.net
    0.0.0.0 servebbs.net
    0.0.0.0 x.servebbs.net
    """

  @Test(
    "Each format writes its own syntax",
    arguments: [
      (OutputFormat.hosts, "0.0.0.0 ads.example.com"), (.domains, "ads.example.com"), (.adblock, "||ads.example.com^"),
      (.wildcard, "*.ads.example.com"), (.dnsmasq, "server=/ads.example.com/"),
      (.unbound, "local-zone: \"ads.example.com.\" always_null"), (.rpz, "ads.example.com CNAME ."),
    ])
  func syntax(format: OutputFormat, firstLine: String) async throws {
    let text = try render(try await compile([source]), format)
    #expect(bodyLines(text, format).first == firstLine)
  }

  @Test("Formats that cover subdomains drop covered names and public suffixes; hosts keeps all")
  func compression() async throws {
    let list = try await compile([source])
    #expect(bodyLines(try render(list, .hosts), .hosts).count == 5)
    #expect(
      bodyLines(try render(list, .adblock), .adblock) == ["||ads.example.com^", "||tracker.net^", "||x.servebbs.net^"])
    #expect(bodyLines(try render(list, .adblock, compresses: false), .adblock).count == 4)
    var sink = ByteSink()
    let report = try Renderer(format: .wildcard).render(list, to: &sink)
    #expect(report.compressed == 1)
    #expect(report.publicSuffixesLeftOut == 1)
    #expect(report.publicSuffixSamples == ["servebbs.net"])
  }

  @Test("A child is kept when its parent is allowed, since nothing else covers it")
  func compressionRespectsAllow() async throws {
    let rules = RuleSet(allow: try RuleSet.parse("=ads.example.com", origin: "allow"))
    let list = try await compile([source], rules: rules)
    #expect(bodyLines(try render(list, .adblock), .adblock).first == "||sub.ads.example.com^")
  }

  @Test("RPZ blocks the name and its subdomains, in a zone with SOA and NS")
  func rpz() async throws {
    let text = try render(try await compile(["0.0.0.0 ads.example.com"]), .rpz)
    #expect(
      // A new zone's serial is its date in seconds since 1970 (ZoneSerial): 0 for this one.
      text.contains("$TTL 300\n@ IN SOA localhost. root.localhost. 0 3600 600 86400 300\n@ IN NS localhost.\n")
    )
    #expect(
      text.hasSuffix(
        "ads.example.com CNAME .\n*.ads.example.com CNAME .\n; Entries written: 1 for 1 name (0 covered by a listed parent)\n"
      ))
  }

  @Test("Formats that block subdomains say both counts: names blocked in the header, entries written last")
  func namesAndEntries() async throws {
    let text = try render(try await compile(["ads.example.com\nsub.ads.example.com\nother.website\n"]), .dnsmasq)
    #expect(
      text.contains(
        "# Names: 3 distinct names blocked (entries written, after leaving out names a listed parent covers: the last line)"
      ))
    #expect(text.hasSuffix("# Entries written: 2 for 3 names (1 covered by a listed parent)\n"))
    #expect(try render(try await compile(["a.website\n"]), .hosts).contains("# Names: 1 distinct names\n"))
  }

  @Test("Hosts output: both address families, a chosen address, several names per line")
  func hostsOptions() async throws {
    let list = try await compile(["a.example.com\nb.example.com\nc.example.com"])
    var sink = ByteSink()
    try Renderer(format: .hosts, hostsAddress: .both, namesPerLine: 2).render(list, to: &sink)
    let lines = bodyLines(String(decoding: sink.memory, as: UTF8.self), .hosts)
    #expect(
      lines == [
        "0.0.0.0 a.example.com b.example.com", ":: a.example.com b.example.com", "0.0.0.0 c.example.com",
        ":: c.example.com",
      ])
    var custom = ByteSink()
    try Renderer(format: .hosts, hostsAddress: .custom("192.0.2.1")).render(list, to: &custom)
    #expect(bodyLines(String(decoding: custom.memory, as: UTF8.self), .hosts).first == "192.0.2.1 a.example.com")
  }

  @Test("dnsmasq lines with several names: up to the count asked, never past 1,000 bytes, in order")
  func dnsmasqPacked() async throws {
    let names = (0..<400).map { "n\($0).\(String(repeating: "x", count: 1 + $0 % 60)).example.com" }
    let list = try await compile([names.joined(separator: "\n")])
    func lines(_ perLine: Int) throws -> [String] {
      var sink = ByteSink()
      try Renderer(format: .dnsmasq, namesPerLine: perLine).render(list, to: &sink)
      return bodyLines(String(decoding: sink.memory, as: UTF8.self), .dnsmasq)
    }
    let three = try lines(3)
    #expect(three.first == "server=/\(names[0])/\(names[1])/\(names[2])/")
    #expect(three.count == 134)
    let packed = try lines(.max)
    #expect(packed.allSatisfy { $0.utf8.count + 1 <= Renderer.dnsmasqLineLimit && $0.hasSuffix("/") })
    #expect(packed.count < 40)
    // A line is closed only when the next name would not fit.
    for (line, next) in zip(packed, packed.dropFirst()) {
      let following = next.dropFirst("server=/".count).split(separator: "/")[0]
      #expect(line.utf8.count + 1 + following.utf8.count + 1 > Renderer.dnsmasqLineLimit)
    }
    let written = packed.flatMap { $0.dropFirst("server=/".count).dropLast(1).split(separator: "/").map(String.init) }
    #expect(written == names)
    #expect(try lines(1).count == 400)
    // Concurrently, the same bytes.
    var sequential = ByteSink()
    var concurrent = ByteSink()
    let renderer = Renderer(format: .dnsmasq, namesPerLine: .max)
    try renderer.render(list, to: &sequential)
    try await renderer.renderConcurrently(list, to: &concurrent)
    #expect(sequential.memory == concurrent.memory)
  }

  @Test("RPZ leaves out names too long for the zone: `*.name.sanehosts.rpz` must stay within 253 characters")
  func rpzTooLong() async throws {
    func name(length: Int) -> String {
      let label = String(repeating: "k", count: 63)
      return "\(label).\(label).\(label).\(String(repeating: "t", count: length - 196)).com"
    }
    let kept = name(length: Renderer.rpzNameLimit)
    let dropped = name(length: Renderer.rpzNameLimit + 1)
    #expect(kept.count == Renderer.rpzNameLimit && dropped.count == Renderer.rpzNameLimit + 1)
    let list = try await compile(["\(kept)\n\(dropped)\nads.example.com"])
    var sink = ByteSink()
    let report = try Renderer(format: .rpz).render(list, to: &sink)
    let text = String(decoding: sink.memory, as: UTF8.self)
    #expect(text.contains("*.\(kept) CNAME .\n"))
    #expect(!text.contains(dropped))
    #expect(report.tooLongForZone == 1 && report.tooLongSamples == [dropped] && report.written == 2)
    #expect(text.hasSuffix("(0 covered by a listed parent, 1 too long for the zone left out)\n"))
    // Other formats keep it.
    #expect(try render(list, .dnsmasq).contains(dropped))
  }

  @Test("The same input gives the same bytes, apart from the header's date")
  func deterministic() async throws {
    let first = try render(
      try await compile([source, "||more.example.org^"]), .hosts, date: Date(timeIntervalSince1970: 0))
    let second = try render(
      try await compile([source, "||more.example.org^"], blockSize: 4096), .hosts, date: Date(timeIntervalSince1970: 0))
    #expect(first == second)
    let later = try render(
      try await compile([source, "||more.example.org^"]), .hosts, date: Date(timeIntervalSince1970: 86_400))
    let differing = zip(first.split(separator: "\n"), later.split(separator: "\n")).filter { $0 != $1 }
    #expect(differing.count == 1)
    #expect(differing.first?.0.contains("Generated by SaneHosts") == true)
  }

  @Test("The header names the sources and counts, in the format's comment syntax")
  func header() async throws {
    let text = try render(try await compile([source]), .adblock)
    #expect(
      text.hasPrefix(
        "[Adblock Plus 2.0]\n! Title: SaneHosts blocklist\n! Generated by SaneHosts: 1970-01-01T00:00:00Z\n"))
    #expect(text.contains("!   list1: 5 entries, 5 distinct names added, 0 rejected\n"))
  }

  @Test("Every rendered format parses back to the names it wrote", arguments: OutputFormat.allCases)
  func roundTrip(format: OutputFormat) async throws {
    let list = try await compile([source, "||z.example.org^\n*.wild.example.org"])
    let text = try render(list, format)
    let expected = bodyLines(text, format).count / (format == .rpz ? 2 : 1)
    let reparsed = try await compile([text], format: InputFormat(format))
    #expect(reparsed.count == expected)
    #expect(reparsed.sources[0].findings.totalRejected == 0, "\(reparsed.sources[0].findings.samples)")
    #expect(Set(reparsed.allNames).isSubset(of: Set(list.allNames)))
  }
}

@Suite("Rendering refuses what is not a name: no line a server's grammar does not allow")
struct RendererHostileTests {
  /// What a row written straight into the store's database made root write into unbound's drop-in.
  static let injected =
    "x.example.com.\" always_null\nlocal-data: \"www.bank.example. A 203.0.113.7\"\ninclude: \"/var/lib/sanehosts/evil.conf\"\nlocal-zone: \"y.example.com"

  /// The same pattern for each format's own directives.
  static let patterns = [
    injected, "a.example\nconf-file=/var/lib/sanehosts/evil.conf", "a.example CNAME .\n$INCLUDE /etc/shadow\nb.example",
    "a.example/#\nserver=/bank.example/203.0.113.7", "0.0.0.0 a.example\n203.0.113.7 bank.example",
    "a.example b.example",
    "a.example\u{0}", "a..example", ".a.example", "A.example",
  ]

  @Test(
    "A deny rule that is no name, added past the parser, fails every format's render, naming it",
    arguments: OutputFormat.allCases)
  func hostileDeny(format: OutputFormat) async throws {
    for pattern in Self.patterns {
      let rules = RuleSet(deny: [RuleSet.Rule(kind: .exact, pattern: pattern, origin: "database")])
      let list = try await compile(["0.0.0.0 ads.website\n"], rules: rules)
      var sink = ByteSink()
      #expect(throws: CompileError.self, "\(format) \(pattern)") {
        try Renderer(format: format).render(list, to: &sink)
      }
      var concurrent = ByteSink()
      await #expect(throws: CompileError.self) {
        try await Renderer(format: format).renderConcurrently(list, to: &concurrent)
      }
      do {
        try Renderer(format: format).render(list, to: &sink)
      } catch {
        #expect(error.localizedDescription.contains("nothing was written"))
        #expect(!error.localizedDescription.contains("\n"), "the sample is shown escaped, on one line")
      }
    }
  }

  @Test("Allow rules and subdomains-only rules that are no name fail the render of formats that write them")
  func hostileExceptions() async throws {
    // Names under the blocked ads.website, so an exception is written for each.
    let allow = RuleSet(
      allow: [
        RuleSet.Rule(
          kind: .exact, pattern: "x\" transparent\ninclude: \"/x\"\nlocal-zone: \"ok.ads.website", origin: "db")
      ])
    let below = RuleSet(deny: [
      RuleSet.Rule(kind: .wildcard, pattern: "conf-file=/x\nserver=/other.website", origin: "db")
    ])
    for format in [OutputFormat.dnsmasq, .unbound, .rpz, .adblock] {
      let list = try await compile(["0.0.0.0 ads.website\n"], rules: allow)
      var sink = ByteSink()
      #expect(throws: CompileError.self, "\(format)") { try Renderer(format: format).render(list, to: &sink) }
    }
    for format in [OutputFormat.dnsmasq, .rpz, .adblock] {
      let list = try await compile(["0.0.0.0 other.website\n"], rules: below)
      var sink = ByteSink()
      #expect(throws: CompileError.self, "\(format)") { try Renderer(format: format).render(list, to: &sink) }
    }
  }

  @Test("A regular expression is never rendered as a name, even as a deny rule written past the parser")
  func regexDeny() async throws {
    let rules = RuleSet(deny: [RuleSet.Rule(kind: .regex, pattern: "evil.example", origin: "db")])
    let list = try await compile(["0.0.0.0 ads.website\n"], rules: rules)
    #expect(!list.allNames.contains("evil.example"))
    #expect(bodyLines(try render(list, .hosts), .hosts) == ["0.0.0.0 ads.website"])
  }

  @Test("A block set file changed on disk to hold a line of another shape is refused when rendered")
  func hostileArchive() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("copy.blockset").path
    let rules = RuleSet(deny: [RuleSet.Rule(kind: .exact, pattern: Self.injected, origin: "db")])
    try await compile(["0.0.0.0 ads.website\n"]).writeArchive(to: path, fingerprint: "f")
    let hostile = try await compile(["0.0.0.0 ads.website\n"], rules: rules)
    try hostile.writeArchive(to: path, fingerprint: "f")
    let read = try #require(CompiledList.readArchive(at: path, fingerprint: "f", rules: RuleSet()))
    for format in OutputFormat.allCases {
      var sink = ByteSink()
      #expect(throws: CompileError.self, "\(format)") { try Renderer(format: format).render(read, to: &sink) }
    }
  }

  @Test("A hosts address that is not an IP address is refused; one that is, written")
  func hostsAddress() async throws {
    let list = try await compile(["0.0.0.0 ads.website\n"])
    var sink = ByteSink()
    #expect(throws: CompileError.self) {
      try Renderer(format: .hosts, hostsAddress: .custom("0.0.0.0\n203.0.113.9 bank.example")).render(list, to: &sink)
    }
    var good = ByteSink()
    try Renderer(format: .hosts, hostsAddress: .custom("192.0.2.1")).render(list, to: &good)
    #expect(String(decoding: good.memory, as: UTF8.self).contains("\n192.0.2.1 ads.website\n"))
  }

  @Test("A title or list name with newlines and control characters stays on its comment line")
  func header() async throws {
    let list = try await compile(["0.0.0.0 ads.website\n"])
    for format in OutputFormat.allCases {
      var sink = ByteSink()
      try Renderer(format: format, title: "t\ninclude: \"/x\"\r\u{1B}[2J\u{2028}end").render(list, to: &sink)
      let text = String(decoding: sink.memory, as: UTF8.self)
      #expect(OutputGrammar.violations(in: text, format: format).isEmpty, "\(format)")
    }
  }
}
