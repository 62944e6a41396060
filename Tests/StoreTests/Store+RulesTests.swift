import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Allow and deny rules")
struct StoreRulesTests {
  @Test(
    "Allow rules are parsed as written",
    arguments: [
      ("example.com", RuleKind.subdomains, "example.com"),
      ("=example.com", .exact, "example.com"),
      ("*.example.com", .wildcard, "example.com"),
      ("/^ads\\./", .regex, "^ads\\."),
      ("  Example.COM  ", .subdomains, "example.com"),
    ])
  func allow(text: String, kind: RuleKind, pattern: String) async throws {
    try await withStore { store, _ throws in
      let rule = try store.addRule(text, action: .allow, comment: "why")
      #expect(rule.id != nil)
      #expect(rule.action == .allow)
      #expect(rule.kind == kind)
      #expect(rule.pattern == pattern)
      #expect(rule.comment == "why")
      let saved = try store.rules()
      #expect(saved.map(\.id) == [rule.id])
      #expect(saved.first?.kind == kind)
      #expect(saved.first?.pattern == pattern)
      #expect(saved.first?.comment == "why")
    }
  }

  @Test("Deny rules: plain and =name deny the name; *.name its subdomains only (it used to become =name silently)")
  func deny() async throws {
    try await withStore { store, _ throws in
      let plain = try store.addRule("a.website", action: .deny)
      let exact = try store.addRule("=b.website", action: .deny)
      let wildcard = try store.addRule("*.c.website", action: .deny)
      #expect([plain.kind, exact.kind, wildcard.kind] == [.exact, .exact, .wildcard])
      #expect([plain.pattern, exact.pattern, wildcard.pattern] == ["a.website", "b.website", "c.website"])
      #expect(wildcard.text == "*.c.website")
    }
  }

  @Test(
    "A command's rules are added all or none: one refused, none is added, and the error names it; one already there is said, not refused"
  )
  func allOrNone() async throws {
    try await withStore { store, _ throws in
      #expect(throws: StoreError.self) { try store.addRules(["a.website", "b.website", "/re/"], action: .deny) }
      #expect(try store.rules(action: .deny).isEmpty)
      // A rule given twice, or one the profile has, is already there: not an error, not added again.
      let twice = try store.addRules(["a.website", "a.website"], action: .allow)
      #expect(twice.added.count == 1 && twice.alreadyThere == ["a.website"])
      let more = try store.addRules(["A.website", "=b.website"], action: .allow)
      #expect(more.added.map(\.pattern) == ["b.website"] && more.alreadyThere == ["A.website"])
    }
  }

  @Test(
    "A special-use name may be denied by the user (warned); a single-label allow rule is kept with a warning, not refused"
  )
  func harmless() async throws {
    try await withStore { store, _ throws in
      let printer = try store.addRule("printer.lan", action: .deny)
      let parsed = RuleSet.Rule(kind: printer.kind, pattern: printer.pattern, origin: "")
      #expect(parsed.warning(deny: true)?.contains("local network name") == true)
      let router = try store.addRule("router", action: .allow)
      #expect(router.pattern == "router")
      let rule = RuleSet.Rule(kind: router.kind, pattern: router.pattern, origin: "")
      #expect(rule.warning(deny: false)?.contains("matches nothing a list may block") == true)
      #expect(throws: StoreError.self) { try store.addRule("localhost", action: .deny) }
    }
  }

  @Test("A regex deny rule and a rule that is not a name are refused with the reason")
  func invalid() async throws {
    try await withStore { store, _ throws in
      #expect(throws: StoreError.invalid(value: "/ads/", reason: "is a pattern; a deny rule must be a name")) {
        try store.addRule("/ads/", action: .deny)
      }
      let notAName = #expect(throws: StoreError.self) { try store.addRule("not a name!", action: .allow) }
      guard case .invalid(let value, let reason) = notAName else {
        Issue.record("expected invalid, got \(String(describing: notAName))")
        return
      }
      #expect(value == "not a name!")
      #expect(reason.hasPrefix("is not a name"))
      #expect(throws: StoreError.invalid(value: "/(/", reason: "is not a valid regular expression")) {
        try store.addRule("/(/", action: .allow)
      }
      #expect(try store.rules().isEmpty)
    }
  }

  @Test("The same rule twice is refused; the same name under another action or kind is not")
  func duplicates() async throws {
    try await withStore { store, _ throws in
      try store.addRule("x.website", action: .allow)
      #expect(throws: StoreError.alreadyExists(kind: "allow rule", name: "X.website")) {
        try store.addRule("X.website", action: .allow)
      }
      try store.addRule("=x.website", action: .allow)
      try store.addRule("x.website", action: .deny)
      try store.addRule("*.x.website", action: .deny)
      #expect(throws: StoreError.self) { try store.addRule("*.X.website", action: .deny) }
      #expect(try store.rules().count == 4)
    }
  }

  @Test("Rules are listed allow first, then in the order added, and can be filtered by action")
  func listing() async throws {
    try await withStore { store, _ throws in
      try store.addRule("d1.website", action: .deny)
      try store.addRule("a1.website", action: .allow)
      try store.addRule("d2.website", action: .deny)
      try store.addRule("a2.website", action: .allow)
      #expect(try store.rules().map(\.pattern) == ["a1.website", "a2.website", "d1.website", "d2.website"])
      #expect(try store.rules(action: .deny).map(\.pattern) == ["d1.website", "d2.website"])
      #expect(try store.rules(action: .allow).map(\.pattern) == ["a1.website", "a2.website"])
    }
  }

  @Test("Rules belong to one profile")
  func perProfile() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work")
      try store.addRule("work.website", action: .deny, to: "work")
      #expect(try store.rules().isEmpty)
      #expect(try store.rules(in: "work").map(\.pattern) == ["work.website"])
      #expect(throws: StoreError.self) { try store.addRule("x.website", action: .deny, to: "nope") }
    }
  }

  @Test("A rule is removed by its text or by its number")
  func remove() async throws {
    try await withStore { store, _ throws in
      let first = try store.addRule("*.a.website", action: .allow)
      let second = try store.addRule("b.website", action: .allow)
      let third = try store.addRule("c.website", action: .deny)
      #expect(try store.removeRule(" *.A.website ", action: .allow).id == first.id)
      #expect(try store.removeRule(String(second.id), action: .allow).id == second.id)
      #expect(try store.rules().map(\.id) == [third.id])
    }
  }

  @Test("Removing is per action; an unknown rule is reported with the known ones")
  func removeUnknown() async throws {
    try await withStore { store, _ throws in
      try store.addRule("c.website", action: .deny)
      try store.addRule("*.w.website", action: .allow)
      try store.addRule("=e.website", action: .allow)
      let error = #expect(throws: StoreError.self) { try store.removeRule("c.website", action: .allow) }
      guard case .notFound(let kind, let name, let known) = error else {
        Issue.record("expected notFound, got \(String(describing: error))")
        return
      }
      #expect(kind == "allow rule in “default”")
      #expect(name == "c.website")
      #expect(known.sorted() == ["*.w.website", "=e.website"], "the allow rules only, as written")
      #expect(try store.rules().count == 3)
    }
  }

  @Test("ruleSet(for:) gives the engine the profile's rules, split by action, with their origin")
  func ruleSet() async throws {
    try await withStore { store, _ throws in
      let allow = try store.addRule("=ok.website", action: .allow)
      try store.addRule("bad.website", action: .deny)
      try store.addRule("/^metrics\\./", action: .allow)
      let set = try store.ruleSet(for: try store.activeProfile())
      #expect(set.allow.map(\.text) == ["=ok.website", "/^metrics\\./"])
      #expect(set.deny.map(\.text) == ["=bad.website"])
      #expect(set.allow.first?.origin == "profile default, rule \(allow.id)")
      #expect(try store.ruleSet(for: try store.createProfile("empty")).isEmpty)
    }
  }

  @Test(
    "Allow rules for a while: given again, they end at the later time or stay for good, never shortened; only allow rules end; ended ones are removed once"
  )
  func forAWhile() async throws {
    try await withStore { store, _ throws in
      let start = Date(timeIntervalSince1970: 1_800_000_000)
      let hour = start.addingTimeInterval(3600)
      let day = start.addingTimeInterval(86_400)
      #expect(try store.nextRuleEnd() == nil)
      let rule = try store.addRule("a.website", action: .allow, expiresAt: hour)
      #expect(rule.expiresAt == hour)
      #expect(try store.nextRuleEnd() == hour)
      #expect(
        try store.addRules(["a.website"], action: .allow, expiresAt: start.addingTimeInterval(60)).alreadyThere == [
          "a.website"
        ])
      #expect(try store.addRules(["a.website"], action: .allow, expiresAt: day).retimed.map(\.expiresAt) == [day])
      #expect(try store.addRules(["a.website"], action: .allow).retimed.map(\.expiresAt) == [nil], "for good")
      #expect(try store.addRules(["a.website"], action: .allow, expiresAt: hour).alreadyThere == ["a.website"])
      #expect(try store.nextRuleEnd() == nil)
      #expect(throws: StoreError.self) { try store.addRule("b.website", action: .deny, expiresAt: hour) }

      try store.createProfile("other")
      try store.addRule("=c.website", action: .allow, to: "other", expiresAt: hour)
      try store.addRule("=d.website", action: .allow, expiresAt: day)
      #expect(try store.removeEndedRules(at: hour.addingTimeInterval(-1)).isEmpty)
      let ended = try store.removeEndedRules(at: hour)
      #expect(ended.map(\.profile) == ["other"] && ended.map(\.rule.text) == ["=c.website"])
      #expect(try store.removeEndedRules(at: hour).isEmpty, "removed once")
      #expect(try store.nextRuleEnd() == day)
      #expect(try store.rules(action: .allow).map(\.text) == ["a.website", "=d.website"])
    }
  }
}
