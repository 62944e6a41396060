import Blocklists
import Testing

@Suite("Reading every list format")
struct LineParserTests {
  @Test("Hosts lines: any blocking address, several names, tabs, inline comments")
  func hosts() {
    let (names, findings) = parse(
      """
      # comment
      0.0.0.0 ads.example.com
      127.0.0.1\tTracker.Example.net  metrics.example.org # inline comment
      :: six.example.com
      ::1 loop6.example.com
      0.0.0.0 0.0.0.0
      127.0.0.1 localhost
      1.2.3.4 bank.website
      """)
    #expect(
      names == [
        "ads.example.com", "tracker.example.net", "metrics.example.org", "six.example.com", "loop6.example.com",
      ])
    #expect(findings.rejected[.ipAddress] == 1)
    #expect(findings.rejected[.localName] == 1)
    #expect(findings.rejected[.nonBlockingAddress] == 1)
    #expect(findings.samples[.nonBlockingAddress]?.first == Findings.Sample(line: 8, text: "1.2.3.4 bank.website"))
    #expect(findings.formats[.hosts] == 4, "lines that gave a name")
    #expect(findings.ignoredLines == 1)
  }

  @Test("Lines starting 0.0.0.0 or 127.0.0.1 (read as words) and look-alikes are told apart")
  func addressWords() {
    let (names, findings) = parse(
      "0.0.0.0\ttab.example.com\n127.0.0.1\tloop.example.com\n127.0.0.10 ten.example.com\n"
        + "127.0.0.100 hundred.example.com\n0.0.0.00 zeros.example.com\n0.0.0.0x.example.com\n"
        + "127.0.0.1x bad.example.com\n127.0.0.2 two.example.com\n0.0.0.0 \n")
    #expect(
      names == [
        "tab.example.com", "loop.example.com", "ten.example.com", "hundred.example.com", "zeros.example.com",
        "two.example.com",
      ])
    #expect(findings.rejected[.gluedAddress] == 1, "0.0.0.0x.example.com is a plain line with an address glued on")
    #expect(findings.samples[.malformedLine]?.map(\.line) == [7, 9], "127.0.0.1x …, and an address alone")
    #expect(findings.rejected.values.reduce(0, +) == 3, "\(findings.rejected)")
  }

  @Test("hosts(5): `#` starts a comment also with no space before it; the names before it count")
  func hostsCommentWithoutSpace() {
    let (names, findings) = parse(
      """
      0.0.0.0 a.example.com#note
      0.0.0.0 b.example.com c.example.com#note d.example.com
      0.0.0.0 #only a comment
      """)
    #expect(names == ["a.example.com", "b.example.com", "c.example.com"])
    #expect(findings.rejected.values.reduce(0, +) == 1, "\(findings.rejected)")  // the address alone
  }

  @Test("A remote list can never send a name to a real address: such lines block nothing")
  func noRedirects() {
    for line in [
      "1.2.3.4 bank.website", "address=/bank.website/1.2.3.4", "server=/bank.website/1.2.3.4",
      "local-data: \"bank.website A 1.2.3.4\"", "bank.website CNAME evil.website.",
    ] {
      let (names, findings) = parse(line)
      #expect(names.isEmpty, "\(line)")
      #expect(findings.rejected[.nonBlockingAddress] == 1, "\(line)")
    }
  }

  @Test("A sentence that starts with an address is one malformed line, not a redirect or a reject per word")
  func prose() {
    let (names, findings) = parse(
      """
      192.168.0.1 is the router's address, keep it out
      1.1.1.1 is a public resolver
      127.0.0.1 is this machine
      0.0.0.0 means nowhere!
      192.168.1.1 router nas
      0.0.0.0 ads.example.com is blocked
      """)
    // The last line has a dotted name: a hosts line whose other words are rejected one by one.
    #expect(names == ["ads.example.com"])
    #expect(findings.rejected[.malformedLine] == 4, "\(findings.rejected)")
    #expect(findings.samples[.malformedLine]?.first?.line == 1)
    // Two plain words after a real address: still a line redirecting names, as hosts files write it.
    #expect(findings.rejected[.nonBlockingAddress] == 1)
    #expect(findings.samples[.nonBlockingAddress]?.first?.line == 5)
  }

  @Test(
    "Prose or not, by the first dotted word: a dot with a character on each side makes a name",
    arguments: [
      ("10.0.0.1 see e.g. the manual", false),  // "e.g." has an inner dot
      ("10.0.0.1 and so on, etc.", true),  // a dot only at the end
      ("10.0.0.1 .hidden files too", true),  // a dot only at the start
      ("10.0.0.1 a. b. c.", true),
      ("10.0.0.1 one two three.four", false),
    ])
  func proseWords(line: String, isProse: Bool) {
    let (_, findings) = parse(line)
    #expect((findings.rejected[.malformedLine] == 1) == isProse, "\(line): \(findings.rejected)")
  }

  @Test(
    "Regression (fuzz): NUL and control bytes after an address end the prose check instead of stalling it",
    .timeLimit(.minutes(5)))
  func proseWithControlBytes() {
    let line = ":: " + String(repeating: "\u{0}", count: 32) + "inline\r\n0.0.0.0 \u{1}\u{7}\u{1F} next.website\n"
    let (names, findings) = parse(line)
    #expect(names == ["next.website"])
    #expect(findings.totalRejected >= 1)
  }

  @Test("Plain domains, wildcard and adblock lines")
  func simpleFormats() {
    let (names, findings) = parse(
      """
      plain.example.com
      *.wild.example.com
      ||ad.example.com^
      ||pipe.example.com^|
      """)
    #expect(names == ["plain.example.com", "wild.example.com", "ad.example.com", "pipe.example.com"])
    #expect(findings.formats == [.domains: 1, .wildcard: 1, .adblock: 2])
  }

  @Test("Adblock rules that are not DNS blocks are counted as unsupported, never misread")
  func adblockUnsupported() {
    let (names, findings) = parse(
      """
      [Adblock Plus 2.0]
      ! comment
      example.com##.ad-banner
      example.com#@#.ad
      @@||allowed.example.com/path^
      ||ads.example.com^$third-party
      ||example.com/ads/*
      /banner/ads/
      &ad_type=
      |http://example.com
      """)
    // (`||ads.example.com` alone is a block of the name: AdblockBareEndTests.)
    #expect(names.isEmpty)
    #expect(findings.rejected[.unsupportedRule] == 8)
    #expect(findings.ignoredLines == 2)
  }

  @Test(
    "An adblock list's own exception @@||name^ is kept with its line for the profile's allow rules, not a name; with $important too; one with a path or other options stays unsupported"
  )
  func adblockException() {
    let (names, findings) = parse(
      """
      ||example.org^
      @@||Test.Example.org^
      @@||x.example.org^|
      @@||x.example.org^$important
      @@||y.example.org^$third-party
      @@||bad name.website^
      """)
    #expect(names == ["example.org"])
    #expect(findings.exceptions?.map(\.text) == ["test.example.org", "x.example.org", "x.example.org"])
    #expect(findings.exceptions?.map(\.line) == [2, 3, 4])
    #expect(findings.rejected[.unsupportedRule] == 2)
    #expect(findings.formats == [.adblock: 4])
  }

  @Test("dnsmasq: address, local and server directives that block")
  func dnsmasq() {
    let (names, findings) = parse(
      """
      address=/a.example.com/
      address=/b.example.com/#
      address=/c.example.com/0.0.0.0
      address=/d.example.com/::
      address=/e.example.com/f.example.com/
      local=/g.example.com/
      server=/h.example.com/
      conf-file=/etc/other.conf
      """)
    #expect(
      names == [
        "a.example.com", "b.example.com", "c.example.com", "d.example.com", "e.example.com", "f.example.com",
        "g.example.com", "h.example.com",
      ])
    #expect(findings.rejected[.unsupportedRule] == 1)
  }

  @Test("unbound: blocking zone types and null local-data")
  func unbound() {
    let (names, findings) = parse(
      """
      server:
      local-zone: "a.example.com." always_null
      local-zone: "b.example.com" always_nxdomain
      local-zone: "c.example.com." static
      local-zone: "d.example.com." transparent
      local-data: "e.example.com. A 0.0.0.0"
      local-data: "f.example.com 3600 IN AAAA ::"
      include: "/etc/unbound/other.conf"
      """)
    #expect(names == ["a.example.com", "b.example.com", "c.example.com", "e.example.com", "f.example.com"])
    #expect(findings.rejected[.unsupportedRule] == 2)
    #expect(findings.ignoredLines == 1)
  }

  @Test("RPZ zones: CNAME . records, wildcards, and the zone's own records ignored")
  func rpz() {
    let (names, findings) = parse(
      """
      $TTL 300
      @ IN SOA localhost. root.localhost. 1 3600 600 86400 300
      @ IN NS localhost.
      a.example.com CNAME .
      *.a.example.com CNAME .
      b.example.com 300 IN CNAME rpz-drop.
      c.example.com A 0.0.0.0
      ok.example.com CNAME rpz-passthru.
      ; comment
      """)
    #expect(names == ["a.example.com", "a.example.com", "b.example.com", "c.example.com"])
    #expect(findings.rejected[.unsupportedRule] == 1)
    #expect(findings.ignoredLines == 4)
  }

  @Test("A forced format rejects lines of another format")
  func forced() {
    let (names, findings) = parse("0.0.0.0 a.example.com\n||b.example.com^\nc.example.com\n", format: .hosts)
    #expect(names == ["a.example.com", "c.example.com"])
    #expect(findings.rejected[.wrongFormat] == 1)
    let adblock = parse("||b.example.com^\nc.example.com\n", format: .adblock)
    #expect(adblock.names == ["b.example.com"])
    #expect(adblock.findings.rejected[.wrongFormat] == 1)
  }

  @Test("BOM, CRLF, blank lines, trailing whitespace and a last line without newline")
  func textQuirks() {
    let (names, findings) = parse("\u{FEFF}a.example.com\r\n\r\n   \r\nb.example.com \t\r\n0.0.0.0 c.example.com")
    #expect(names == ["a.example.com", "b.example.com", "c.example.com"])
    #expect(findings.lines == 5)
    #expect(findings.ignoredLines == 2)
  }

  @Test("Every rejection is counted, with at most five samples and their line numbers")
  func samples() {
    let text = (1...8).map { "bad_tld.\($0)23" }.joined(separator: "\n")
    let (_, findings) = parse(text)
    #expect(findings.rejected[.invalidTopLabel] == 8)
    #expect(findings.samples[.invalidTopLabel]?.map(\.line) == [1, 2, 3, 4, 5])
    #expect(findings.totalRejected == 8)
  }

  @Test(
    "A glued comment ends the names in every line format (hosts(5): `#` starts a comment anywhere); dnsmasq's `address=/x/#` is no comment"
  )
  func gluedComments() {
    let (names, findings) = parse(
      "ads.example.com# note\n0.0.0.0 b.example.com#note\n*.c.example.com#note\n"
        + "address=/d.example.com/0.0.0.0 # a comment\naddress=/e.example.com/#\n||f.example.com^ # note\n"
        + "||g.example.com^#note\n")
    #expect(
      names == [
        "ads.example.com", "b.example.com", "c.example.com", "d.example.com", "e.example.com", "f.example.com",
        "g.example.com",
      ])
    #expect(findings.totalRejected == 0, "\(findings.samples)")
  }

  @Test(
    "Several names on a plain line are each taken and each validated, as hBlock and HostlistCompiler do; a sentence is one malformed line"
  )
  func severalNames() {
    let (names, findings) = parse(
      "a.example.com b.example.com\tc.example.com # note\nd.example.com bad_name! e.example.com\n"
        + "This is not a list of names at all\n127.0.0.1x f.example.com\n")
    #expect(names == ["a.example.com", "b.example.com", "c.example.com", "d.example.com", "e.example.com"])
    #expect(findings.rejected[.invalidCharacter] == 1)
    #expect(findings.samples[.malformedLine]?.map(\.line) == [4], "127.0.0.1x is a broken address, not a name")
    #expect(findings.formats[.domains] == 2)
  }

  @Test("Local network and special-use names in any line format are counted with their own reasons, never taken")
  func specialUse() {
    let (names, findings) = parse(
      "0.0.0.0 a.localhost printer.local\nnas.home.arpa\n||db.internal^\naddress=/router.lan/#\n"
        + "local-zone: \"x.test.\" always_null\n*.docs.example\nads.example.com\n46186911.vtt\n")
    #expect(names == ["ads.example.com"])
    #expect(findings.rejected[.localNetworkName] == 5)
    #expect(findings.rejected[.reservedName] == 2)
    #expect(findings.rejected[.unknownTopLevelDomain] == 1)
    #expect(findings.samples[.localNetworkName]?.first == Findings.Sample(line: 1, text: "a.localhost"))
  }
}

@Suite("Adblock rules without a separator")
struct AdblockBareEndTests {
  @Test(
    "Regression: `||name` with nothing after it blocks the name, as HostlistCompiler keeps it and AdGuard Home's DNS engine matches it (it was rejected as not a DNS block); paths and options stay rejected"
  )
  func bareEnd() {
    let (names, findings) = parse(
      "[Adblock Plus 2.0]\n||ads.website\n||b.website # note\n||c.website/path\n||d.website$third-party\n||e\n")
    #expect(names == ["ads.website", "b.website"])
    #expect(findings.totalRejected == 3, "\(findings.rejected)")
  }
}

@Suite("Markup after an address")
struct MarkupAfterAddressTests {
  @Test("Regression: an HTML line that starts with an address is a malformed line, not \"redirects to a real address\"")
  func markup() {
    let (names, findings) = parse("1.2.3.4 <b>example.org</b>\n192.168.1.1 lan.website\n")
    #expect(names.isEmpty)
    #expect(findings.rejected[.malformedLine] == 1, "\(findings.rejected)")
    #expect(findings.rejected[.nonBlockingAddress] == 1, "a real redirect is still one")
  }
}
