import Testing

@testable import Blocklists

@Suite("Special-use and local network names are never blocked from a list")
struct SpecialUseTests {
  @Test(
    "Each name and the standard that reserves it",
    arguments: [
      ("localhost.localdomain", RejectReason.localName),  // the machine's own, as before
      ("a.localhost", .localNetworkName),  // RFC 6761 §6.3: always loopback
      ("printer.local", .localNetworkName),  // RFC 6762: multicast DNS
      ("nas.home.arpa", .localNetworkName),  // RFC 8375
      ("home.arpa", .localNetworkName),
      ("db.internal", .localNetworkName),  // ICANN: reserved for private use
      ("router.lan", .localNetworkName), ("pc.corp", .localNetworkName), ("x.localdomain", .localNetworkName),
      ("a.test", .reservedName), ("docs.example", .reservedName), ("x.invalid", .reservedName),  // RFC 6761
      ("abc.onion", .reservedName),  // RFC 7686
      ("46186911.vtt", .unknownTopLevelDomain), ("tracker.comm", .unknownTopLevelDomain),
    ])
  func reserved(name: String, reason: RejectReason) {
    #expect(NameRules.normalize(name) == .failure(reason))
    #expect(NameRules.normalize(name.uppercased() + ".") == .failure(reason), "any case, a final dot")
  }

  @Test(
    "Ordinary names stay valid: example.com/org/net (the peers' tests use them), other .arpa names, every TLD of the list",
    arguments: [
      "example.com", "ads.example.org", "example.net", "1.0.0.127.in-addr.arpa", "x.home.arpa.example.com",
      "tracker.host", "a.co.uk", "xn--mnchen-3ya.de", "ads.photography", "x.xn--p1ai", "notlocal.com",
    ])
  func ordinary(name: String) {
    #expect(NameRules.normalize(name) == .success(name))
    #expect(SpecialUse.reason(name) == nil)
  }

  @Test("A user's own deny rule may name them (the rule is theirs); the reason is still known")
  func allowed() {
    #expect(NameRules.normalize("printer.lan", allowingSpecialUse: true) == .success("printer.lan"))
    #expect(NameRules.normalize("Docs.Example", allowingSpecialUse: true) == .success("docs.example"))
    #expect(SpecialUse.reason("printer.lan") == .localNetworkName)
  }

  @Test("No special-use name from a list reaches any output, in any line format")
  func noOutput() async throws {
    let text = """
      0.0.0.0 a.localhost printer.local ads.website
      nas.home.arpa
      ||db.internal^
      ||*.router.lan^
      address=/x.test/#
      local-zone: "y.example." always_null
      z.invalid CNAME .
      *.w.onion
      46186911.vtt
      """
    let list = try await compile([text])
    #expect(list.allNames == ["ads.website"])
    for format in OutputFormat.allCases {
      let output = try render(list, format)
      for label in [
        "localhost", ".local", "home.arpa", "internal", ".lan", ".test", "example", "invalid", "onion", ".vtt",
      ] {
        #expect(!bodyLines(output, format).contains { $0.contains(label) }, "\(format): \(label)")
      }
    }
  }

  @Test("The packed labels written as literals are the labels packed; every top-level domain of the list passes")
  func packedLiterals() {
    #expect(SpecialUse.com == SpecialUse.pack("com"))
    #expect(SpecialUse.net == SpecialUse.pack("net"))
    #expect(SpecialUse.org == SpecialUse.pack("org"))
    #expect(SpecialUse.onion == SpecialUse.pack("onion"))
    #expect(SpecialUse.arpa == SpecialUse.pack("arpa"))
    for top in ["de", "uk", "co", "io", "xyz", "website", "blog", "academy", "accountants", "xn--p1ai"] {
      #expect(SpecialUse.reason("a.\(top)") == nil, "\(top)")
    }
    for top in ["comm", "vtt", "zz", "websites", "accountantss"] {
      #expect(SpecialUse.reason("a.\(top)") == .unknownTopLevelDomain, "\(top)")
    }
    // Every top-level label of the list (read as text, as the table was first built) is known.
    let tops = Set(
      PublicSuffixList.bundledRules.split(separator: "\n").compactMap { line -> String? in
        let rule = line.trimmingPrefix(while: { $0 == " " || $0 == "!" })
        guard !rule.isEmpty, !rule.hasPrefix("//"), let top = rule.split(separator: ".").last, top != "*" else {
          return nil
        }
        return String(top)
      })
    #expect(tops.count > 1_400)
    let unknown = tops.filter { !["test", "example", "invalid", "onion", "local", "localhost"].contains($0) }
      .filter { SpecialUse.reason("a.\($0)") != nil }
    #expect(unknown.isEmpty, "\(unknown.sorted().prefix(5))")
  }
}
