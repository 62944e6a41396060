import Blocklists
import Foundation
import Testing

@testable import Traffic

@Suite("Which lists block a queried name")
struct AttributionTests {
  @Test("The name, its parents where the server covers subdomains, an allow rule's exception, a deny rule; sizes")
  func lists() async throws {
    let list = try await HitCounterTests.compiled(allow: ["=ok.ads.website"], deny: ["extra.website"])
    let covering = Attribution(compiled: list, format: .dnsmasq)
    let exact = Attribution(compiled: list, format: .hosts)
    #expect(covering.lists == ["first", "second", "deny rules"])
    #expect(covering.sizes == [2, 3, 1])
    #expect(covering.lists(for: "tracker.website") == [0, 1])
    #expect(covering.lists(for: "Deep.Tracker.Website.") == [0, 1], "case and the final dot as logs write them")
    #expect(exact.lists(for: "deep.tracker.website").isEmpty)
    #expect(covering.lists(for: "ok.ads.website").isEmpty, "the allow rule's exception")
    #expect(covering.lists(for: "extra.website") == [2])
    #expect(covering.lists(for: "not a name!").isEmpty)
    #expect(
      covering.lists(for: "tracker.website") == [0, 1], "asked again, the same answer: nothing is kept between names")
  }

  @Test(
    "Regression: once a profile has an allow rule, a name and its listed parent still count for every list whose entry blocks it (only the name's own entry counted), and a subdomains-only deny rule under a listed parent counts for the deny rules"
  )
  func everyBlockingEntry() async throws {
    let list = try await HitCounterTests.compiled(allow: ["=ok.ads.website"], deny: ["*.tracker.website"])
    let dnsmasq = Attribution(compiled: list, format: .dnsmasq)
    // sub.tracker.website: the first and second lists' tracker.website entry, and the *.tracker.website rule.
    #expect(dnsmasq.lists(for: "sub.tracker.website") == [0, 1, 2])
    #expect(dnsmasq.lists(for: "tracker.website") == [0, 1], "the rule is for its subdomains only")
    // The exact allow rule's exception keeps its subdomains blocked by ads.website's entry (dnsmasq).
    #expect(dnsmasq.lists(for: "sub.ok.ads.website") == [0])
    #expect(Attribution(compiled: list, format: .unbound).lists(for: "sub.ok.ads.website").isEmpty)
    // Without any allow rule, the same counts.
    let plain = try await HitCounterTests.compiled(deny: ["*.tracker.website"])
    #expect(Attribution(compiled: plain, format: .dnsmasq).lists(for: "sub.tracker.website") == [0, 1, 2])
  }

  /// docs/applying.md's table "What each target blocks" for a rule on `a.x` whose parent `x` is listed (and, for
  /// the subdomains-only deny, not listed): whether `a.x` and `sub.a.x` are blocked, per output format.
  static let table: [(rule: String, deny: Bool, parentListed: Bool, expected: [OutputFormat: (Bool, Bool)])] = [
    // `=a.x`: unbound's transparent zone lets the subdomains through too; dnsmasq and RPZ re-block them.
    (
      "=a.x.website", false, true,
      [.hosts: (false, false), .dnsmasq: (false, true), .unbound: (false, false), .rpz: (false, true)]
    ),
    (
      "a.x.website", false, true,
      [.hosts: (false, false), .dnsmasq: (false, false), .unbound: (false, false), .rpz: (false, false)]
    ),
    // `*.a.x`: the name stays blocked (unbound's local-data), its subdomains are let through.
    (
      "*.a.x.website", false, true,
      [.hosts: (false, false), .dnsmasq: (true, false), .unbound: (true, false), .rpz: (true, false)]
    ),
    // deny `*.a.x`: hosts and unbound cannot say it (left out); dnsmasq and RPZ block the subdomains only.
    (
      "*.a.x.website", true, false,
      [.hosts: (false, false), .dnsmasq: (false, true), .unbound: (false, false), .rpz: (false, true)]
    ),
  ]

  @Test(
    "Regression: every rule kind × target counts as the target's drop-in makes the server answer (docs/applying.md's table): unbound's exact allow opens the subdomains, a subdomains-only deny blocks nothing where the format cannot say it"
  )
  func ruleKindsByTarget() async throws {
    // The formats of every target (NetworkHitsTests checks each target writes one of them).
    let formats: [OutputFormat] = [.hosts, .dnsmasq, .unbound, .rpz]
    for row in Self.table {
      let parent = ListSource(
        name: "list",
        location: .bytes(Array((row.parentListed ? "0.0.0.0 x.website\n" : "0.0.0.0 other.website\n").utf8)))
      let rules =
        row.deny
        ? RuleSet(deny: try RuleSet.parse(row.rule, origin: "test", deny: true))
        : RuleSet(allow: try RuleSet.parse(row.rule, origin: "test"))
      let list = try await Compiler().compile([parent], rules: rules)
      for format in formats {
        let expected = try #require(row.expected[format], "\(format)")
        let attribution = Attribution(compiled: list, format: format)
        let got = (!attribution.lists(for: "a.x.website").isEmpty, !attribution.lists(for: "sub.a.x.website").isEmpty)
        #expect(got == expected, "\(row.deny ? "deny" : "allow") \(row.rule) in \(format): a.x, sub.a.x")
        // The counter and `why`'s engine (the renderer's verdict) agree.
        if format.coversSubdomains {
          let exceptions = list.exceptions(for: format)
          let written = { list.isWritten($0, format: format) }
          #expect(
            exceptions.verdict("sub.a.x.website", isWritten: written).isBlocked == expected.1, "\(row.rule) \(format)")
        }
      }
    }
  }
}
