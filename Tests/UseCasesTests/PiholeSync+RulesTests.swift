import Blocklists
import Pihole
import Testing
import UseCases

@Suite("Pi-hole sync: the profile's rules as the Pi-hole's domain entries")
struct PiholeSyncRulesTests {
  static let rules = RuleSet(
    allow: [
      .init(kind: .exact, pattern: "keep.example", origin: "r:1"),
      .init(kind: .subdomains, pattern: "open.example", origin: "r:2"),
      .init(kind: .wildcard, pattern: "wild.example", origin: "r:3"),
      .init(kind: .regex, pattern: "^ad[0-9]+\\.", origin: "r:4"),
      .init(kind: .exact, pattern: "keep.example", origin: "r:5"),
    ],
    deny: [.init(kind: .exact, pattern: "tracker.example", origin: "r:6")])

  @Test("Each rule kind keeps its meaning; a repeated rule is one entry")
  func entries() {
    #expect(
      PiholeSync.entries(for: Self.rules).map(\.description) == [
        "allow exact keep.example", #"allow regex (\.|^)open\.example$"#, #"allow regex \.wild\.example$"#,
        #"allow regex ^ad[0-9]+\."#, "deny exact tracker.example",
      ])
  }

  @Test("Only missing entries are added; only this profile's stale ones are removed, and only when asked")
  func plan() {
    var plan = PiholeSync(profile: "home", sources: [], existing: [], removeDropped: true)
    let existing = [
      PiholeDomain(domain: "keep.example", type: "allow", kind: "exact", comment: "by hand", enabled: true, id: 1),
      PiholeDomain(domain: "gone.example", type: "deny", kind: "exact", comment: plan.comment, enabled: true, id: 2),
      PiholeDomain(domain: "theirs.example", type: "deny", kind: "exact", comment: "other", enabled: true, id: 3),
    ]
    plan.planRules(Self.rules, existing: existing, removeDropped: true)
    #expect(plan.rulesToAdd.count == 4 && plan.rulesKept == 1)
    #expect(plan.rulesToRemove.map(\.domain) == ["gone.example"])
    plan.planRules(Self.rules, existing: existing, removeDropped: false)
    #expect(plan.rulesToRemove.isEmpty)
  }
}
