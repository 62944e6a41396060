import Blocklists
import Foundation
import Pihole
import Store

extension PiholeSync {
  /// One Pi-hole domain entry a profile rule becomes.
  public struct RuleEntry: Sendable, Hashable {
    /// `allow` or `deny`.
    public var type: String
    /// `exact` or `regex`.
    public var kind: String
    /// The name, or the regular expression.
    public var domain: String

    /// Creates an entry.
    public init(type: String, kind: String, domain: String) {
      self.type = type
      self.kind = kind
      self.domain = domain
    }

    /// `allow exact a.example`, for the command's lines.
    public var description: String { "\(type) \(kind) \(domain)" }
  }

  /// The Pi-hole entries of a profile's rules, with the Pi-hole's own meanings: `=a.x` an exact allow;
  /// `a.x` a regular expression for the name and its subdomains (`(\.|^)a\.x$`); `*.a.x` one for its
  /// subdomains (`\.a\.x$`); `/re/` the expression itself; a deny rule an exact deny (FTL blocks exactly
  /// the names of its lists, so a denied name blocks only itself there), and a subdomains-only one (`*.x`,
  /// or a list's `||*.x^`, which FTL's gravity drops) a regex deny `\.x$`.
  public static func entries(for rules: RuleSet) -> [RuleEntry] {
    func escaped(_ name: String) -> String { name.replacingOccurrences(of: ".", with: "\\.") }
    let allow = rules.allow.map { rule -> RuleEntry in
      switch rule.kind {
      case .exact: RuleEntry(type: "allow", kind: "exact", domain: rule.pattern)
      case .subdomains: RuleEntry(type: "allow", kind: "regex", domain: "(\\.|^)\(escaped(rule.pattern))$")
      case .wildcard: RuleEntry(type: "allow", kind: "regex", domain: "\\.\(escaped(rule.pattern))$")
      case .regex: RuleEntry(type: "allow", kind: "regex", domain: rule.pattern)
      }
    }
    let deny = rules.deny.map { rule -> RuleEntry in
      rule.kind == .wildcard
        ? RuleEntry(type: "deny", kind: "regex", domain: "\\.\(escaped(rule.pattern))$")
        : RuleEntry(type: "deny", kind: "exact", domain: rule.pattern)
    }
    var seen: Set<RuleEntry> = []
    return (allow + deny).filter { seen.insert($0).inserted }
  }

  /// The rules a Pi-hole needs for `profile` to block there what it blocks here: its allow and deny
  /// rules and the enabled sources' own exceptions (`@@||name^`), which FTL's gravity counts as invalid
  /// lines of a block list and drops, so that without an allow entry it would block them.
  public static func rules(of profile: Profile, in store: Store) async throws(StoreError) -> RuleSet {
    let rules = try store.ruleSet(for: profile)
    var reports: [SourceReport] = []
    for member in try store.sources(in: profile.name) where member.enabled {
      if let list = await store.list(of: member.source) { reports += list.sources }
    }
    return rules.including(listExceptions: reports)
  }

  /// Plans the profile's rules against the Pi-hole's domain entries `existing`: the entries to add, and
  /// (with `removeDropped`) this profile's own entries no rule asks for any more.
  public mutating func planRules(_ rules: RuleSet, existing: [PiholeDomain], removeDropped: Bool) {
    let wanted = Self.entries(for: rules)
    let present = Set(existing.map { RuleEntry(type: $0.type, kind: $0.kind, domain: $0.domain) })
    rulesToAdd = wanted.filter { !present.contains($0) }
    let wantedSet = Set(wanted)
    rulesToRemove =
      removeDropped
      ? existing.filter { $0.comment == comment }.map { RuleEntry(type: $0.type, kind: $0.kind, domain: $0.domain) }
        .filter { !wantedSet.contains($0) } : []
    rulesKept = wanted.count - rulesToAdd.count
  }

  /// Every domain entry of the Pi-hole (allow and deny, exact and regex).
  public static func existingDomains(with client: PiholeClient) async throws -> [PiholeDomain] {
    var all: [PiholeDomain] = []
    for type in ["allow", "deny"] {
      for kind in ["exact", "regex"] { all += try await client.domains(type: type, kind: kind) }
    }
    return all
  }

  /// Adds and removes the planned rule entries, those of one type and kind in one request.
  func applyRules(with client: PiholeClient) async throws {
    let groups = Dictionary(grouping: rulesToAdd) { "\($0.type) \($0.kind)" }
    for key in groups.keys.sorted() {
      let entries = groups[key] ?? []
      let processed = try await client.addDomains(
        entries.map(\.domain), type: entries[0].type, kind: entries[0].kind, comment: comment)
      if !processed.errors.isEmpty { throw PiholeError.itemsFailed(processed.errors) }
    }
    for entry in rulesToRemove { try await client.removeDomain(entry.domain, type: entry.type, kind: entry.kind) }
  }
}

extension PiholeSync {
  /// The plan that makes `client`'s Pi-hole block as `profile` does: its lists against the profile's
  /// sources, and its rules against the profile's (`pihole sync` and `fleet sync` both start here).
  public static func plan(
    for profile: Profile, in store: Store, with client: PiholeClient, removeDropped: Bool
  ) async throws -> PiholeSync {
    let rules = try await rules(of: profile, in: store)
    var plan = PiholeSync(
      profile: profile.name, sources: try store.sources(in: profile.name),
      existing: try await client.lists(type: "block"), removeDropped: removeDropped)
    plan.planRules(rules, existing: try await existingDomains(with: client), removeDropped: removeDropped)
    return plan
  }
}
