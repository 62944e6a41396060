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

  @Test("Deny rules are names: plain, =name and *.name all deny the exact name")
  func deny() async throws {
    try await withStore { store, _ throws in
      let plain = try store.addRule("a.example", action: .deny)
      let exact = try store.addRule("=b.example", action: .deny)
      let wildcard = try store.addRule("*.c.example", action: .deny)
      #expect([plain.kind, exact.kind, wildcard.kind] == [.exact, .exact, .exact])
      #expect([plain.pattern, exact.pattern, wildcard.pattern] == ["a.example", "b.example", "c.example"])
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
      try store.addRule("x.example", action: .allow)
      #expect(throws: StoreError.alreadyExists(kind: "allow rule in “default”", name: "X.example")) {
        try store.addRule("X.example", action: .allow)
      }
      try store.addRule("=x.example", action: .allow)
      try store.addRule("x.example", action: .deny)
      #expect(throws: StoreError.self, "*.x.example denies exactly x.example, which is already denied") {
        try store.addRule("*.x.example", action: .deny)
      }
      #expect(try store.rules().count == 3)
    }
  }

  @Test("Rules are listed allow first, then in the order added, and can be filtered by action")
  func listing() async throws {
    try await withStore { store, _ throws in
      try store.addRule("d1.example", action: .deny)
      try store.addRule("a1.example", action: .allow)
      try store.addRule("d2.example", action: .deny)
      try store.addRule("a2.example", action: .allow)
      #expect(try store.rules().map(\.pattern) == ["a1.example", "a2.example", "d1.example", "d2.example"])
      #expect(try store.rules(action: .deny).map(\.pattern) == ["d1.example", "d2.example"])
      #expect(try store.rules(action: .allow).map(\.pattern) == ["a1.example", "a2.example"])
    }
  }

  @Test("Rules belong to one profile")
  func perProfile() async throws {
    try await withStore { store, _ throws in
      try store.createProfile("work")
      try store.addRule("work.example", action: .deny, to: "work")
      #expect(try store.rules().isEmpty)
      #expect(try store.rules(in: "work").map(\.pattern) == ["work.example"])
      #expect(throws: StoreError.self) { try store.addRule("x.example", action: .deny, to: "nope") }
    }
  }

  @Test("A rule is removed by its text or by its number")
  func remove() async throws {
    try await withStore { store, _ throws in
      let first = try store.addRule("*.a.example", action: .allow)
      let second = try store.addRule("b.example", action: .allow)
      let third = try store.addRule("c.example", action: .deny)
      #expect(try store.removeRule(" *.A.example ", action: .allow).id == first.id)
      #expect(try store.removeRule(String(second.id), action: .allow).id == second.id)
      #expect(try store.rules().map(\.id) == [third.id])
    }
  }

  @Test("Removing is per action; an unknown rule is reported with the known ones")
  func removeUnknown() async throws {
    try await withStore { store, _ throws in
      try store.addRule("c.example", action: .deny)
      try store.addRule("*.w.example", action: .allow)
      try store.addRule("=e.example", action: .allow)
      let error = #expect(throws: StoreError.self) { try store.removeRule("c.example", action: .allow) }
      guard case .notFound(let kind, let name, let known) = error else {
        Issue.record("expected notFound, got \(String(describing: error))")
        return
      }
      #expect(kind == "allow rule in “default”")
      #expect(name == "c.example")
      #expect(known.sorted() == ["*.w.example", "=e.example"], "the allow rules only, as written")
      #expect(try store.rules().count == 3)
    }
  }

  @Test("ruleSet(for:) gives the engine the profile's rules, split by action, with their origin")
  func ruleSet() async throws {
    try await withStore { store, _ throws in
      let allow = try store.addRule("=ok.example", action: .allow)
      try store.addRule("bad.example", action: .deny)
      try store.addRule("/^metrics\\./", action: .allow)
      let set = try store.ruleSet(for: try store.activeProfile())
      #expect(set.allow.map(\.text) == ["=ok.example", "/^metrics\\./"])
      #expect(set.deny.map(\.text) == ["=bad.example"])
      #expect(set.allow.first?.origin == "profile default, rule \(allow.id)")
      #expect(try store.ruleSet(for: try store.createProfile("empty")).isEmpty)
    }
  }
}
