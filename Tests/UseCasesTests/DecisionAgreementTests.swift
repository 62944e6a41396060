import Apply
import Blocklists
import Foundation
import Store
import Testing
import Traffic

@testable import UseCases

/// One decision, whoever asks: `why` (the CLI's and the dashboard's Why?), `hits` (`Attribution`), the
/// compile's allow step and the test report's rule (`RuleSet.decision`), over random profiles and names.
@Suite("Every caller decides a name alike")
struct DecisionAgreementTests {
  /// A seeded generator (SplitMix64): the same profile and names on every run.
  struct Seeded {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  /// A name of a small tree: `dN.website`, `sK.dN.website`, `xJ.sK.dN.website`, so lists and rules meet
  /// at parents and children.
  static func name(_ random: inout Seeded) -> String {
    let base = "d\(random.next(12)).website"
    switch random.next(4) {
    case 0: return base
    case 1, 2: return "s\(random.next(3)).\(base)"
    default: return "x\(random.next(2)).s\(random.next(3)).\(base)"
    }
  }

  /// A random profile: three lists in three formats and a few allow and deny rules of every kind.
  static func profile(seed: UInt64) -> (lists: [(key: String, text: String)], allow: [String], deny: [String]) {
    var random = Seeded(state: seed)
    var hosts = ""
    var adblock = ""
    var domains = ""
    for _ in 0..<40 {
      hosts += "0.0.0.0 \(name(&random))\n"
      adblock += "||\(name(&random))^\n"
      domains += "\(name(&random))\n"
    }
    var allow: [String] = []
    for _ in 0..<random.next(5) {
      let target = name(&random)
      allow.append([target, "=\(target)", "*.\(target)", "/^s\(random.next(3))\\./"][random.next(4)])
    }
    var deny: [String] = []
    for _ in 0..<random.next(4) {
      let target = name(&random)
      deny.append(random.next(3) == 0 ? "*.\(target)" : target)
    }
    return ([("hosts-list", hosts), ("adblock-list", adblock), ("domains-list", domains)], allow, deny)
  }

  @Test("why, hits and the compile agree on every name in every format, over 40 random profiles", arguments: 0..<40)
  func agree(seed: Int) async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    let profile = Self.profile(seed: UInt64(seed) &* 7919 &+ 1)
    for list in profile.lists { try harness.add(list.text, key: list.key) }
    for rule in Set(profile.allow) { try harness.store.addRule(rule, action: .allow) }
    for rule in Set(profile.deny) { try harness.store.addRule(rule, action: .deny) }
    try await harness.update()
    let compiled = try await ProfileList.compile(profile: nil, in: harness.store).list

    var random = Seeded(state: UInt64(seed))
    let queries = Array(Set((0..<150).map { _ in Self.name(&random) } + ["d0.website", "s0.d0.website"])).sorted()
    let answer = try await Explainer(store: harness.store).explain(queries)
    let context = "seed \(seed), allow \(profile.allow), deny \(profile.deny)"

    // Each list alone with the profile's rules, and the rules alone: a list blocks a name when it would
    // on its own, whatever the others hold.
    var alone: [(key: String, list: CompiledList)] = []
    for list in profile.lists {
      alone.append((list.key, try await Compiler().compile([.text(list.text, name: list.key)], rules: compiled.rules)))
    }
    alone.append(("deny rules", try await Compiler().compile([.text("", name: "none")], rules: compiled.rules)))
    for format in OutputFormat.allCases {
      let attribution = Attribution(compiled: compiled, format: format)
      let single = alone.map { ($0.key, Attribution(compiled: $0.list, format: format)) }
      for (query, explanation) in zip(queries, answer.names) {
        let output = try #require(explanation.outputs.first { $0.format == format.rawValue })
        let lists = attribution.lists(for: query).map { attribution.lists[Int($0)] }
        let blocked = output.written == .asItself || output.written == .coveredByParent
        #expect(!lists.isEmpty == blocked, "\(format) \(query): why \(output.written), hits \(lists); \(context)")
        // An expression's exception is written only for a name the profile's set holds: what one list
        // blocks alone under it can differ from what the profile does (the engine's design, not a drift).
        let underExpression = compiled.rules.allow.contains { rule in
          rule.kind == .regex && Explainer.selfAndParents(query).contains { RuleSet.matches(rule, $0) }
        }
        guard !underExpression else { continue }
        let expected = single.filter { key, one in
          one.lists(for: query).map { one.lists[Int($0)] }.contains(key == "deny rules" ? "deny rules" : key)
        }.map(\.0)
        #expect(Set(lists) == Set(expected), "\(format) \(query): alone \(expected); \(context)")
      }
    }
    let rules = compiled.rules
    for (query, explanation) in zip(queries, answer.names) {
      // The compile's set, `why`'s verdict and the hosts file agree.
      #expect(
        compiled.isWritten(query, format: .hosts) == (explanation.verdict == .blocked), "\(query); \(context)")
      // The rule `why` says decides is the test report's (`RuleSet.decision`), when an allow rule decides.
      let decides = explanation.rules.first { $0.decides && $0.allows }
      if let decides {
        #expect(rules.decision(for: query)?.rule == decides.rule, "\(query); \(context)")
      }
    }
    // The compile took each name out with the rule the decision names.
    for report in compiled.ruleReports where report.allows {
      for sample in report.samples {
        #expect(rules.decidingAllowRule(for: sample)?.text == report.rule.text, "\(sample); \(context)")
      }
    }
  }
}
