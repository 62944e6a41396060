import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Profile fingerprints")
struct StoreFingerprintTests {
  @Test("The fingerprint follows the copies, their order, a forced format, the rules and the engine")
  func inputs() throws {
    let base = Store.fingerprint([(1, "aa", nil), (2, "bb", .hosts)], rules: RuleSet())
    #expect(base.count == 64 && base == Store.fingerprint([(1, "aa", nil), (2, "bb", .hosts)], rules: RuleSet()))
    #expect(base != Store.fingerprint([(2, "bb", .hosts), (1, "aa", nil)], rules: RuleSet()))
    #expect(base != Store.fingerprint([(1, "ab", nil), (2, "bb", .hosts)], rules: RuleSet()))
    #expect(base != Store.fingerprint([(1, "aa", .domains), (2, "bb", .hosts)], rules: RuleSet()))
    var rules = RuleSet()
    rules.allow = try RuleSet.parse("keep.website\n", origin: "test")
    #expect(base != Store.fingerprint([(1, "aa", nil), (2, "bb", .hosts)], rules: rules))
  }

  @Test("A profile's current fingerprint covers its enabled sources with a saved copy, and changes with a rule")
  func current() async throws {
    try await withStore { store, _ throws in
      let (a, _) = try store.addSource(web("a"))
      let (b, _) = try store.addSource(web("b"))
      let profile = try store.activeProfile()
      let none = try store.currentFingerprint(of: profile)
      #expect(none == Store.fingerprint([], rules: RuleSet()))
      let savedA = try await store.save(["x.website"], for: a)
      let one = try store.currentFingerprint(of: profile)
      #expect(one == Store.fingerprint([(savedA.id, savedA.sha256!, nil)], rules: RuleSet()))
      _ = try await store.save(["y.website"], for: b)
      try store.setEnabled(false, source: b.key)
      #expect(try store.currentFingerprint(of: profile) == one)
      _ = try store.addRule("x.website", action: .allow)
      #expect(try store.currentFingerprint(of: profile) != one)
    }
  }
}
