import Foundation

/// Allow and deny rules: allowed names are taken out of the block set, denied names put in.
///
/// One rule per line; `#` starts a comment.
/// - `example.com` — in an allow list: the name **and its subdomains** (label by label, so `t.co` does not
///   allow `fat.co`); in a deny list: the name.
/// - `=example.com` — exactly this name.
/// - `*.example.com` — its subdomains only, not the name itself: allowed, or (deny) blocked where the
///   format can say "subdomains only" (adblock `||*.name^`, dnsmasq `server=/*.name/`, RPZ `*.name`);
///   hosts, domains, wildcard and unbound output cannot, and leave it out, counted (never blocking the
///   name itself).
/// - `/regex/` — names the regular expression matches anywhere (allow lists only; anchor with `^…$`).
///   Regex rules test every name, so they cost time on large lists.
///
/// Allow wins over every block, denied names included. A deny rule may name what no list may block (a
/// local network or special-use name, `printer.lan`): it is the user's own choice, and `warning` says
/// so. An allow rule that can match nothing a list may block (`router`, `nas.local`) is kept, with a
/// warning: an allow rule can only unblock.
public struct RuleSet: Sendable, Hashable {
  /// How a rule matches.
  public enum Kind: String, Sendable, Hashable, Codable {
    case exact, subdomains, wildcard, regex
  }

  /// One rule and where it was written.
  public struct Rule: Sendable, Hashable, Codable {
    public var kind: Kind
    /// The normalised name, or the regular expression's source.
    public var pattern: String
    /// `file:line` of the rule, for reports.
    public var origin: String

    /// Creates a rule.
    public init(kind: Kind, pattern: String, origin: String) {
      self.kind = kind
      self.pattern = pattern
      self.origin = origin
    }

    /// Why this rule may not do what it seems to, for a warning (nil when it does): a deny rule for a
    /// local network or special-use name; an allow rule that matches nothing a list may block.
    public func warning(deny: Bool) -> String? {
      guard kind != .regex else { return nil }
      let reason = pattern.contains(".") ? SpecialUse.reason(pattern) : .bareTopLevelDomain
      guard let reason else { return nil }
      return deny
        ? "deny rule \(text) blocks a \(reason.summary.replacingOccurrences(of: ", never blocked", with: "")): no list may block it, your rule does"
        : "allow rule \(text) matches nothing a list may block (\(reason.summary)): it is kept, and changes nothing"
    }

    /// Why this rule is not one `RuleSet.rule(_:origin:deny:)` makes (a pattern holding a newline, a
    /// quote or a space; a name not in normal form; a regular expression as a deny rule); nil when it is.
    /// Rules that reach the engine from anywhere but that parser (the store's rows, a ledger) are checked
    /// with this, so no pattern is rendered that the parser would not have written.
    public func problem(deny: Bool) -> String? {
      do {
        let parsed = try RuleSet.rule(text, origin: origin, deny: deny)
        return parsed.kind == kind && parsed.pattern == pattern ? nil : "is not a rule in normal form"
      } catch {
        if case .invalidRule(_, _, _, let reason) = error { return reason }
        return error.localizedDescription
      }
    }

    /// The rule as written in a rules file.
    public var text: String {
      switch kind {
      case .exact: "=\(pattern)"
      case .subdomains: pattern
      case .wildcard: "*.\(pattern)"
      case .regex: "/\(pattern)/"
      }
    }
  }

  /// Rules whose names leave the block set.
  public var allow: [Rule]
  /// Rules whose names join the block set.
  public var deny: [Rule]

  /// Creates a rule set.
  public init(allow: [Rule] = [], deny: [Rule] = []) {
    self.allow = allow
    self.deny = deny
  }

  /// These rules and, after the allow rules, each source's own exceptions (`@@||name^` of an adblock
  /// list) as allow rules for the name and its subdomains, as AdGuard Home reads them across all its lists;
  /// after the deny rules, its subdomains-only blocks (`||*.name^`) as deny rules `*.name`. Their origin
  /// is the source and line (`easylist, line 12`).
  public func including(listExceptions sources: [SourceReport]) -> RuleSet {
    var rules = self
    for source in sources {
      for exception in source.findings.exceptions ?? [] {
        rules.allow.append(
          Rule(kind: .subdomains, pattern: exception.text, origin: "\(source.name), line \(exception.line)"))
      }
    }
    for source in sources {
      for block in source.findings.subdomainBlocks ?? [] {
        rules.deny.append(Rule(kind: .wildcard, pattern: block.text, origin: "\(source.name), line \(block.line)"))
      }
    }
    return rules
  }

  /// The deny rules that block a name's subdomains only (`*.name`), whose names no block set holds.
  public var subdomainDenials: [Rule] { deny.filter { $0.kind == .wildcard } }

  /// Whether there is no rule.
  public var isEmpty: Bool { allow.isEmpty && deny.isEmpty }

  /// Parses a rules file's text; `origin` names the file in errors.
  public static func parse(_ text: String, origin: String, deny: Bool = false) throws(CompileError) -> [Rule] {
    var rules: [Rule] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if index == 0, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
      if line.isEmpty || line.hasPrefix("#") { continue }
      if let comment = line.range(of: " #") { line = line[..<comment.lowerBound].trimmingCharacters(in: .whitespaces) }
      rules.append(try rule(line, origin: "\(origin):\(index + 1)", deny: deny))
    }
    return rules
  }

  /// Parses one rule.
  public static func rule(_ text: String, origin: String, deny: Bool = false) throws(CompileError) -> Rule {
    let (file, line) = split(origin)
    if text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") {
      let pattern = String(text.dropFirst().dropLast())
      guard !deny else {
        throw .invalidRule(file: file, line: line, text: text, reason: "is a pattern; a deny rule must be a name")
      }
      do {
        _ = try NSRegularExpression(pattern: pattern)
      } catch {
        throw .invalidRule(file: file, line: line, text: text, reason: "is not a valid regular expression")
      }
      return Rule(kind: .regex, pattern: pattern, origin: origin)
    }
    var kind: Kind = deny ? .exact : .subdomains
    var name = Substring(text)
    if name.hasPrefix("=") {
      kind = .exact
      name = name.dropFirst()
    } else if name.hasPrefix("*.") {
      kind = .wildcard
      name = name.dropFirst(2)
    }
    // A user's rule may name a local network or special-use name (`warning` says what it does).
    switch NameRules.normalize(String(name), allowingSpecialUse: true) {
    case .success(let normalised):
      return Rule(kind: kind, pattern: normalised, origin: origin)
    case .failure(let reason):
      // An allow rule for a single label (`router`, `localhost`) can only unblock: kept, with a warning.
      if !deny, reason == .bareTopLevelDomain || reason == .localName, let label = singleLabel(name) {
        return Rule(kind: kind, pattern: label, origin: origin)
      }
      throw .invalidRule(file: file, line: line, text: text, reason: "is not a name (\(reason.summary))")
    }
  }

  /// A single label of letters, digits and inner hyphens, lower-cased, without a final dot.
  private static func singleLabel(_ text: Substring) -> String? {
    let label = (text.hasSuffix(".") ? text.dropLast() : text).lowercased()
    guard !label.isEmpty, label.utf8.count <= NameRules.maximumLabelLength, !label.hasPrefix("-"),
      !label.hasSuffix("-"), label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
    else { return nil }
    return label
  }

  /// Warnings for these rules (`Rule.warning`), in order: allow rules, then deny rules.
  public var warnings: [String] {
    allow.compactMap { $0.warning(deny: false) } + deny.compactMap { $0.warning(deny: true) }
  }

  private static func split(_ origin: String) -> (String, Int) {
    guard let colon = origin.lastIndex(of: ":"), let line = Int(origin[origin.index(after: colon)...]) else {
      return (origin, 0)
    }
    return (String(origin[..<colon]), line)
  }
}
