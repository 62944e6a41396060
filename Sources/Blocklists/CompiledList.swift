import Foundation

/// The result of a compile: the block set in first-seen order, what each source gave, what each rule did.
public struct CompiledList: Sendable {
  /// What one allow or deny rule changed.
  public struct RuleReport: Sendable, Hashable, Codable {
    /// The rule.
    public var rule: RuleSet.Rule
    /// Whether it is an allow rule (else deny).
    public var allows: Bool
    /// Names it removed (allow) or added (deny).
    public var count = 0
    /// Up to five of those names.
    public var samples: [String] = []
  }

  /// The names, removed ones marked.
  public private(set) var names: NameSet
  /// One report per source, in the order given.
  public var sources: [SourceReport]
  /// The rules applied: the ones given, then the sources' own exceptions (`RuleSet.including`).
  public let rules: RuleSet
  /// One report per rule: allow rules first, then deny rules.
  public internal(set) var ruleReports: [RuleReport] = []
  /// Where each name came from, for a source compiled alone with `Compiler.recordsOrigins` (else empty).
  public internal(set) var origins = Origins()

  init(names: NameSet, sources: [SourceReport], rules: RuleSet) {
    self.names = names
    self.sources = sources
    self.rules = rules.including(listExceptions: sources)
  }

  /// Names in the block set.
  public var count: Int { names.count }

  /// Whether a name is blocked: in the set, or under a subdomains-only deny rule that no allow rule
  /// takes it out of.
  public func blocks(_ name: String) -> Bool {
    if names.contains(name) { return true }
    let parents = Set(NameRules.parents(of: name))
    return rules.subdomainDenials.contains { parents.contains($0.pattern) }
      && !rules.allow.contains { RuleSet.matches($0, name) }
  }

  /// The names of the sources that list a name ("which list blocks this?"); "deny rules" for denied names.
  public func sources(listing name: String) -> [String] {
    guard let entry = names.entry(of: name) else { return [] }
    return names.sources(of: entry).map { $0 < sources.count ? sources[$0].name : "deny rules" }
  }

  /// The names in order (for tests and small lists; large outputs go through a renderer).
  public var allNames: [String] { names.names }

  // MARK: Rules

  mutating func applyRules() {
    ruleReports =
      rules.allow.map { RuleReport(rule: $0, allows: true) } + rules.deny.map { RuleReport(rule: $0, allows: false) }
    let denySource = sources.count
    // A subdomains-only rule (`*.name`) puts no name in the set: renderers write it (`subdomainBlocks`).
    // A regular expression is never a name (`RuleSet.rule` refuses one as a deny rule).
    for (offset, rule) in rules.deny.enumerated()
    where rule.kind != .wildcard && rule.kind != .regex && names.insert(rule.pattern, source: denySource) {
      record(rules.allow.count + offset, rule.pattern)
    }
    applyAllowNames()
    applyAllowPatterns()
  }

  private mutating func record(_ report: Int, _ name: String) {
    ruleReports[report].count += 1
    if ruleReports[report].samples.count < Findings.samplesPerReason { ruleReports[report].samples.append(name) }
  }

  /// Exact, subdomain and wildcard allow rules: a few hash lookups per name, one per label.
  private mutating func applyAllowNames() {
    var tables: [RuleSet.Kind: (set: NameSet, rule: [Int])] = [:]
    for (index, rule) in rules.allow.enumerated() where rule.kind != .regex {
      var table = tables[rule.kind] ?? (NameSet(sourceCount: 1), [])
      if table.set.insert(rule.pattern, source: 0) { table.rule.append(index) }
      tables[rule.kind] = table
    }
    guard !tables.isEmpty else { return }
    let exact = tables[.exact]
    let subdomains = tables[.subdomains]
    let wildcard = tables[.wildcard]

    var removals: [(entry: Int, rule: Int)] = []
    for entry in 0..<names.entryCount where !names.isRemoved(entry) {
      let match: Int? = names.withName(entry) { name in
        func lookup(_ table: (set: NameSet, rule: [Int])?, _ suffix: UnsafeBufferPointer<UInt8>) -> Int? {
          guard let table, let found = table.set.entry(of: suffix, hash: NameHash.hash(suffix)) else { return nil }
          return table.rule[found]
        }
        if let rule = lookup(exact, name) ?? lookup(subdomains, name) { return rule }
        var index = 0
        while index < name.count {
          if name[index] == UInt8(ascii: ".") {
            let suffix = UnsafeBufferPointer(rebasing: name[(index + 1)...])
            if let rule = lookup(subdomains, suffix) ?? lookup(wildcard, suffix) { return rule }
          }
          index += 1
        }
        return nil
      }
      if let match { removals.append((entry, match)) }
    }
    for (entry, rule) in removals {
      names.remove(entry)
      record(rule, names.name(entry))
    }
  }

  /// Regex allow rules: each remaining name against each expression.
  private mutating func applyAllowPatterns() {
    let patterns = rules.allow.enumerated().compactMap { index, rule -> (Int, NSRegularExpression)? in
      guard rule.kind == .regex, let expression = try? NSRegularExpression(pattern: rule.pattern) else { return nil }
      return (index, expression)
    }
    guard !patterns.isEmpty else { return }
    for entry in 0..<names.entryCount where !names.isRemoved(entry) {
      let name = names.name(entry)
      let range = NSRange(location: 0, length: name.utf16.count)
      if let (rule, _) = patterns.first(where: { $0.1.firstMatch(in: name, range: range) != nil }) {
        names.remove(entry)
        record(rule, name)
      }
    }
  }
}

extension CompiledList: CustomStringConvertible {
  /// A short summary: names, sources and rules.
  public var description: String {
    "CompiledList(\(count) names from \(sources.count) sources, \(rules.allow.count) allow and \(rules.deny.count) deny rules)"
  }
}
