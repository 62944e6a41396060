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

  /// The rule that decides `name`: the first allow rule that matches it (allow wins over every block),
  /// else the first deny rule for the name or one of its parents; nil when no rule applies.
  public func decision(for name: String) -> Decision? {
    let name = name.lowercased()
    if let rule = allow.first(where: { Self.matches($0, name) }) {
      return Decision(allows: true, rule: rule.text, origin: rule.origin)
    }
    if let rule = deny.first(where: { name == $0.pattern || name.hasSuffix("." + $0.pattern) }) {
      return Decision(allows: false, rule: rule.pattern, origin: rule.origin)
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
