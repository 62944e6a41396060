import Blocklists
import Testing

@Suite("Which of the user's rules decides a name")
struct RuleSetDecisionTests {
  let rules = RuleSet(
    allow: try! RuleSet.parse("doubleclick.net\n=exact.website\n*.wild.website\n/^ads[0-9]+\\./\n", origin: "allow"),
    deny: try! RuleSet.parse("tracker.website\n", origin: "deny", deny: true))

  @Test("Allow rules: subdomains, exact, wildcard and pattern, label by label; allow wins over deny")
  func allow() {
    #expect(rules.decision(for: "ad.DoubleClick.net")?.summary == "allowed by your rule doubleclick.net")
    #expect(rules.decision(for: "doubleclick.net")?.origin == "allow:1")
    #expect(rules.decision(for: "notdoubleclick.net") == nil)
    #expect(rules.decision(for: "exact.website")?.rule == "=exact.website")
    #expect(rules.decision(for: "sub.exact.website") == nil)
    #expect(rules.decision(for: "wild.website") == nil)
    #expect(rules.decision(for: "a.wild.website")?.rule == "*.wild.website")
    #expect(rules.decision(for: "ads42.example.org")?.rule == "/^ads[0-9]+\\./")
    let both = RuleSet(allow: rules.allow, deny: try! RuleSet.parse("doubleclick.net\n", origin: "d", deny: true))
    #expect(both.decision(for: "doubleclick.net")?.allows == true)
  }

  @Test("Deny rules decide the name and its subdomains; no rule, no decision")
  func deny() {
    #expect(rules.decision(for: "tracker.website")?.summary == "blocked by your rule tracker.website")
    #expect(rules.decision(for: "cdn.tracker.website")?.allows == false)
    #expect(rules.decision(for: "example.org") == nil)
    #expect(RuleSet().decision(for: "anything.website") == nil)
  }

  @Test(
    "Regression: the deciding rule is the engine's, whatever order the rules were added in (the test report named the first one added: *.x before =a.x, a far parent's deny before a near one's)"
  )
  func engineOrder() throws {
    let rules = RuleSet(
      allow: try RuleSet.parse("/^a\\./\n*.x.website\nx.website\n=a.x.website\n", origin: "allow"),
      deny: try RuleSet.parse("y.website\nb.y.website\n*.c.b.y.website\n", origin: "deny", deny: true))
    #expect(rules.decision(for: "a.x.website")?.rule == "=a.x.website")
    #expect(rules.decidingAllowRule(for: "b.a.x.website")?.text == "x.website", "a parent with its subdomains first")
    #expect(rules.decidingAllowRule(for: "a.other.website")?.text == "/^a\\./", "expressions last")
    #expect(rules.decision(for: "z.b.y.website")?.rule == "b.y.website", "the nearest parent's deny rule")
    #expect(rules.decision(for: "d.c.b.y.website")?.rule == "*.c.b.y.website")
    #expect(
      rules.decidingDenyRule(for: "c.b.y.website")?.pattern == "b.y.website", "*.c.b.y.website is not c.b.y.website's")
  }
}
