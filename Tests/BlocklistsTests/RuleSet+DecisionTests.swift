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
}
