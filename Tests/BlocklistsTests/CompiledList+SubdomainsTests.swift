import Blocklists
import Foundation
import Testing

@Suite("Subdomains-only blocks: ||*.x^, .x^| and deny *.x")
struct CompiledListSubdomainsTests {
  static let list = """
    ||ads.website^
    ||*.cdn.website^
    .trk.website^|
    ||*.co.uk^
    ||*.sub.ads.website^
    0.0.0.0 x.cdn.website
    """

  static func compiled(allow: String = "", deny: String = "") async throws -> CompiledList {
    var rules = RuleSet()
    rules.allow = try RuleSet.parse(allow, origin: "allow")
    rules.deny = try RuleSet.parse(deny, origin: "deny", deny: true)
    return try await compile([list], rules: rules)
  }

  @Test("They become the list's deny rules *.x with their line; the name itself is never blocked")
  func rules() async throws {
    let list = try await Self.compiled()
    #expect(
      list.rules.subdomainDenials.map(\.text) == ["*.cdn.website", "*.trk.website", "*.co.uk", "*.sub.ads.website"])
    #expect(list.rules.subdomainDenials.first?.origin == "list1, line 2")
    #expect(list.blocks("a.cdn.website") && list.blocks("deep.a.trk.website"))
    #expect(!list.blocks("cdn.website") && !list.blocks("trk.website"))
    #expect(list.allNames == ["ads.website", "x.cdn.website"])
  }

  @Test(
    "Written where the format can say it (adblock, dnsmasq, RPZ); never a public suffix, never one a written parent covers; left out, counted, elsewhere"
  )
  func rendered() async throws {
    let list = try await Self.compiled()
    #expect(
      bodyLines(try render(list, .adblock), .adblock) == ["||ads.website^", "||*.cdn.website^", "||*.trk.website^"])
    #expect(
      bodyLines(try render(list, .dnsmasq), .dnsmasq) == [
        "server=/ads.website/", "server=/*.cdn.website/", "server=/*.trk.website/",
      ])
    #expect(
      bodyLines(try render(list, .rpz), .rpz) == [
        "ads.website CNAME .", "*.ads.website CNAME .", "*.cdn.website CNAME .", "*.trk.website CNAME .",
      ])
    for format in [OutputFormat.hosts, .domains, .wildcard, .unbound] {
      let blocks = list.subdomainBlocks(for: format)
      // In hosts and domains output, ads.website blocks only itself: *.sub.ads.website is not covered.
      let expected = ["cdn.website", "trk.website"] + (format.coversSubdomains ? [] : ["sub.ads.website"])
      #expect(blocks.written.isEmpty && blocks.unexpressed == expected, "\(format)")
      #expect(!(try render(list, format)).contains("trk.website"), "\(format): never the name itself")
    }
    #expect(list.subdomainBlocks(for: .dnsmasq).leftOut == ["co.uk"])
  }

  @Test(
    "An allow rule under one gets the format's exception; one over its whole subtree drops it; a user's deny *.x is one too"
  )
  func withRules() async throws {
    let list = try await Self.compiled(allow: "=keep.cdn.website\ntrk.website", deny: "*.user.website")
    #expect(
      bodyLines(try render(list, .dnsmasq), .dnsmasq) == [
        // The profile's own deny rules come first, then the lists'.
        "server=/ads.website/", "server=/*.user.website/", "server=/*.cdn.website/", "server=/keep.cdn.website/#",
        "server=/*.keep.cdn.website/",
      ])
    #expect(!list.blocks("keep.cdn.website") && list.blocks("x.keep.cdn.website") && !list.blocks("a.trk.website"))
    #expect(list.blocks("a.user.website") && !list.blocks("user.website"))
  }
}
