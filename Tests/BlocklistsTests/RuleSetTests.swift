import Blocklists
import Testing

@Suite("Allow and deny rules")
struct RuleSetTests {
  let blocked = """
    example.com
    ads.example.com
    deep.ads.example.com
    t.co
    fat.co
    tracker.net
    cdn.tracker.net
    metrics.shop.org
    """

  func compiled(allow: String = "", deny: String = "") async throws -> CompiledList {
    let rules = RuleSet(
      allow: try RuleSet.parse(allow, origin: "allow.txt"),
      deny: try RuleSet.parse(deny, origin: "deny.txt", deny: true))
    return try await compile([blocked], rules: rules)
  }

  @Test("A plain allow name covers the name and its subdomains, label by label")
  func subdomains() async throws {
    let list = try await compiled(allow: "example.com\nt.co\n")
    #expect(list.allNames == ["fat.co", "tracker.net", "cdn.tracker.net", "metrics.shop.org"])
    #expect(list.ruleReports[0].count == 3)
    #expect(list.ruleReports[0].samples == ["example.com", "ads.example.com", "deep.ads.example.com"])
    #expect(list.ruleReports[1].count == 1, "t.co must not allow fat.co")
  }

  @Test("=name allows exactly the name; *.name only its subdomains")
  func exactAndWildcard() async throws {
    let exact = try await compiled(allow: "=ads.example.com")
    #expect(!exact.blocks("ads.example.com"))
    #expect(exact.blocks("deep.ads.example.com"))
    let wildcard = try await compiled(allow: "*.tracker.net")
    #expect(wildcard.blocks("tracker.net"))
    #expect(!wildcard.blocks("cdn.tracker.net"))
  }

  @Test("Regex rules allow what they match")
  func regex() async throws {
    let list = try await compiled(allow: "/^metrics\\./  # metrics hosts")
    #expect(!list.blocks("metrics.shop.org"))
    #expect(list.count == 7)
  }

  @Test("Deny rules add names, and allow still wins over them")
  func deny() async throws {
    let list = try await compiled(
      allow: "=extra.example.org", deny: "new.example.org\n=wild.example.org\nextra.example.org")
    #expect(list.blocks("new.example.org"))
    #expect(list.blocks("wild.example.org"))
    #expect(!list.blocks("extra.example.org"))
    #expect(list.sources(listing: "new.example.org") == ["deny rules"])
  }

  @Test("Bad rules are named with file, line and reason")
  func invalid() {
    #expect(
      throws: CompileError.invalidRule(
        file: "allow.txt", line: 2, text: "bad..name", reason: "is not a name (empty label)")
    ) {
      try RuleSet.parse("ok.example.com\nbad..name", origin: "allow.txt")
    }
    #expect(throws: CompileError.self) { try RuleSet.parse("/(unclosed/", origin: "allow.txt") }
    #expect(throws: CompileError.self) { try RuleSet.parse("/ads/", origin: "deny.txt", deny: true) }
  }

  @Test("Rules print back as written")
  func text() throws {
    let rules = try RuleSet.parse("a.com\n=b.com\n*.c.com\n/d/\n", origin: "x")
    #expect(rules.map(\.text) == ["a.com", "=b.com", "*.c.com", "/d/"])
    #expect(rules.map(\.origin) == ["x:1", "x:2", "x:3", "x:4"])
  }
}

@Suite("A list's own exceptions as allow rules")
struct RuleSetListExceptionTests {
  @Test(
    "@@||name^ of a list allows the name and its subdomains across every list of the profile, and says where it came from"
  )
  func listExceptions() async throws {
    let list = try await compile([
      "||example.org^\n@@||test.example.org^\n||deep.test.example.org^\n", "ads.test.example.org\nother.website\n",
    ])
    #expect(list.allNames == ["example.org", "other.website"])
    let rule = try #require(list.rules.allow.first)
    #expect(rule.kind == .subdomains && rule.pattern == "test.example.org" && rule.origin == "list1, line 2")
    var sink = ByteSink()
    try Renderer(format: .dnsmasq).render(list, to: &sink)
    #expect(String(decoding: sink.memory, as: UTF8.self).contains("server=/test.example.org/#\n"))
  }
}
