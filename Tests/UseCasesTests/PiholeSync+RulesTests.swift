import Blocklists
import Foundation
import Pihole
import Store
import Testing
import UseCases

@Suite("Pi-hole sync: the profile's rules as the Pi-hole's domain entries")
struct PiholeSyncRulesTests {
  static let rules = RuleSet(
    allow: [
      .init(kind: .exact, pattern: "keep.website", origin: "r:1"),
      .init(kind: .subdomains, pattern: "open.website", origin: "r:2"),
      .init(kind: .wildcard, pattern: "wild.website", origin: "r:3"),
      .init(kind: .regex, pattern: "^ad[0-9]+\\.", origin: "r:4"),
      .init(kind: .exact, pattern: "keep.website", origin: "r:5"),
    ],
    deny: [
      .init(kind: .exact, pattern: "tracker.website", origin: "r:6"),
      .init(kind: .wildcard, pattern: "cdn.website", origin: "r:7"),
    ])

  @Test("Each rule kind keeps its meaning; a repeated rule is one entry")
  func entries() {
    #expect(
      PiholeSync.entries(for: Self.rules).map(\.description) == [
        "allow exact keep.website", #"allow regex (\.|^)open\.website$"#, #"allow regex \.wild\.website$"#,
        #"allow regex ^ad[0-9]+\."#, "deny exact tracker.website",
        #"deny regex \.cdn\.website$"#,
      ])
  }

  @Test("Only missing entries are added; only this profile's stale ones are removed, and only when asked")
  func plan() {
    var plan = PiholeSync(profile: "home", sources: [], existing: [], removeDropped: true)
    let existing = [
      PiholeDomain(domain: "keep.website", type: "allow", kind: "exact", comment: "by hand", enabled: true, id: 1),
      PiholeDomain(domain: "gone.website", type: "deny", kind: "exact", comment: plan.comment, enabled: true, id: 2),
      PiholeDomain(domain: "theirs.website", type: "deny", kind: "exact", comment: "other", enabled: true, id: 3),
    ]
    plan.planRules(Self.rules, existing: existing, removeDropped: true)
    #expect(plan.rulesToAdd.count == 5 && plan.rulesKept == 1)
    #expect(plan.rulesToRemove.map(\.domain) == ["gone.website"])
    plan.planRules(Self.rules, existing: existing, removeDropped: false)
    #expect(plan.rulesToRemove.isEmpty)
  }

  @Test("A list's own exceptions reach the Pi-hole as regex allows (its gravity drops @@ lines of a block list)")
  func listExceptions() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    try harness.add("||example.org^\n@@||test.example.org^\n||ads.website^\n", key: "easy")
    try harness.store.addRule("=keep.website", action: .allow)
    try await harness.update()
    let profile = try harness.store.profile(nil)
    let rules = try await PiholeSync.rules(of: profile, in: harness.store)
    #expect(
      PiholeSync.entries(for: rules).map(\.description) == [
        "allow exact keep.website", #"allow regex (\.|^)test\.example\.org$"#,
      ])
    // Without the list's exception, the Pi-hole would block test.example.org through ||example.org^.
    #expect(try harness.store.ruleSet(for: profile).allow.count == 1)
  }

  @Test("The Pi-hole column of docs/applying.md's rule table is what sync adds for each rule kind")
  func readmeColumn() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appending(path: "docs/applying.md"), encoding: .utf8)
    let rows: [(String, RuleSet.Kind)] = [("| `=a.x`", .exact), ("| `a.x`", .subdomains), ("| `*.a.x`", .wildcard)]
    for (prefix, kind) in rows {
      let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix(prefix + " (") }, "\(prefix)")
      // The last cell's code span, `\|` read as `|`.
      let last = try #require(line.dropLast().split(separator: "| ").last).replacingOccurrences(of: "\\|", with: "|")
      let code = last.split(separator: "`", omittingEmptySubsequences: false)[1]
      let entry = PiholeSync.entries(for: RuleSet(allow: [.init(kind: kind, pattern: "a.x", origin: "r")]))
      #expect(entry.map(\.description) == [String(code)], "\(prefix)")
    }
  }
}
