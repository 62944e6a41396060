import Foundation

extension RuleSet {
  /// The user's rule that decides a name, for explaining a test result.
  public struct Decision: Sendable, Hashable, Codable {
    /// Whether the rule allows the name (else it denies it).
    public var allows: Bool
    /// The rule as written (`doubleclick.net`, `=ads.example.com`, `/^ad/`).
    public var rule: String
    /// `file:line` or where the rule was added.
    public var origin: String

    /// Creates a decision.
    public init(allows: Bool, rule: String, origin: String) {
      self.allows = allows
      self.rule = rule
      self.origin = origin
    }

    /// “allowed by your rule doubleclick.net”.
    public var summary: String { "\(allows ? "allowed" : "blocked") by your rule \(rule)" }
  }

  /// The rule that decides `name`: the allow rule that takes it out (allow wins over every block), else
  /// the deny rule on it or its nearest parent; nil when no rule applies.
  public func decision(for name: String) -> Decision? {
    let name = name.lowercased()
    if let rule = decidingAllowRule(for: name) {
      return Decision(allows: true, rule: rule.text, origin: rule.origin)
    }
    if let rule = decidingDenyRule(for: name) {
      return Decision(allows: false, rule: rule.kind == .wildcard ? rule.text : rule.pattern, origin: rule.origin)
    }
    return nil
  }

  /// The allow rule that takes a normalised `name` out, in the one order every caller uses: the
  /// compile's allow step (`CompiledList.applyRules`, which finds the same rule through hash tables),
  /// `why`, `hits`, the test report. An exact rule on the name, then a rule on the name with its
  /// subdomains; then for each parent, nearest first, a rule with its subdomains, then one for its
  /// subdomains only (`*.`); then expressions, in the order added. Within one kind and pattern, the rule
  /// added first.
  public func decidingAllowRule(for name: String) -> Rule? {
    func first(_ kind: Kind, _ pattern: String) -> Rule? {
      allow.first { $0.kind == kind && $0.pattern == pattern }
    }
    if let rule = first(.exact, name) ?? first(.subdomains, name) { return rule }
    for parent in NameRules.parents(of: name) {
      if let rule = first(.subdomains, parent) ?? first(.wildcard, parent) { return rule }
    }
    return allow.first { $0.kind == .regex && Self.matches($0, name) }
  }

  /// The deny rule that blocks a normalised `name`: one naming it, else the nearest parent's (a
  /// subdomains-only rule `*.parent` among them); nil when none does.
  public func decidingDenyRule(for name: String) -> Rule? {
    if let rule = deny.first(where: { $0.kind != .wildcard && $0.pattern == name }) { return rule }
    for parent in NameRules.parents(of: name) {
      if let rule = deny.first(where: { $0.pattern == parent }) { return rule }
    }
    return nil
  }

  /// Whether an allow rule matches `name` (already lower-cased).
  public static func matches(_ rule: Rule, _ name: String) -> Bool {
    switch rule.kind {
    case .exact: name == rule.pattern
    case .subdomains: name == rule.pattern || name.hasSuffix("." + rule.pattern)
    case .wildcard: name.hasSuffix("." + rule.pattern)
    case .regex:
      (try? NSRegularExpression(pattern: rule.pattern)).map {
        $0.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
      } ?? false
    }
  }
}

extension RuleSet {
  /// Whether a name-shaped allow rule lets every subdomain of `name` through (`name` or a parent allowed
  /// with its subdomains, or `*.` of it): a subdomains-only block of `name` then blocks nothing.
  public func allowsEverySubdomain(of name: String) -> Bool {
    allow.contains { rule in
      (rule.kind == .subdomains || rule.kind == .wildcard)
        && (name == rule.pattern || name.hasSuffix("." + rule.pattern))
    }
  }
}
