/// The exceptions that allow rules make in a format whose entries also block subdomains, and the one
/// verdict of a name in that format that the renderer writes and `why` explains.
///
/// In hosts and domains output an allow rule simply leaves a name out. In a covering format (adblock,
/// wildcard, dnsmasq, unbound, RPZ) a listed parent's entry blocks every name under it, so an allowed name
/// under a blocked parent needs an exception in the consumer's own syntax, or the parent blocks it anyway.
/// A rule's `Scope` is exact (`=a.x`), its subtree (`a.x`) or below it (`*.a.x`); each format's lines for
/// each scope are `Renderer.lines(for:ownEntry:)`, and docs/applying.md's table "What each target blocks" (checked
/// against them by `TargetBlocksTableTests`).
///
/// The wildcard format has no exception syntax: the parent's entry is written and still blocks the name,
/// and the renderer counts it (`Renderer.Report.unexpressedExceptions`). A regular-expression allow rule
/// becomes an exact exception for each listed name it removed: a server cannot match expressions, so an
/// unlisted name it matches under a blocked parent stays blocked in covering formats.
public struct Exceptions: Sendable, Hashable {
  /// How far an exception reaches.
  public enum Scope: String, Sendable, Hashable, Codable {
    /// The name only; its subdomains stay covered by the blocked parent.
    case exact
    /// The name and every subdomain.
    case subtree
    /// The subdomains only; the name itself stays blocked.
    case below
  }

  /// One exception: a name, its reach, and the allow rule that makes it.
  public struct Exception: Sendable, Hashable, Codable {
    /// The normalised name.
    public var name: String
    /// How far it reaches.
    public var scope: Scope
    /// The allow rule as written (`=a.example`, `a.example`, `*.a.example`, `/re/`).
    public var rule: String

    /// Creates an exception.
    public init(name: String, scope: Scope, rule: String) {
      self.name = name
      self.scope = scope
      self.rule = rule
    }

    /// The exception a name-shaped allow rule asks for (`=a` exact, `a` subtree, `*.a` below); nil for an
    /// expression, whose exceptions are the listed names it removed.
    public init?(rule: RuleSet.Rule) {
      switch rule.kind {
      case .exact: self.init(name: rule.pattern, scope: .exact, rule: rule.text)
      case .subdomains: self.init(name: rule.pattern, scope: .subtree, rule: rule.text)
      case .wildcard: self.init(name: rule.pattern, scope: .below, rule: rule.text)
      case .regex: return nil
      }
    }
  }

  /// What a name's verdict is in a covering format.
  public enum Verdict: Sendable, Hashable {
    /// Written as an entry of its own.
    case listed
    /// Blocked by the entry of `parent` (or, below an exact exception, by the re-block under it).
    case covered(parent: String)
    /// Let through by an exception at the name or a parent.
    case excepted(Exception)
    /// No entry blocks it.
    case notCovered

    /// Whether the name is blocked.
    public var isBlocked: Bool {
      switch self {
      case .listed, .covered: true
      case .excepted, .notCovered: false
      }
    }
  }

  /// The format.
  public let format: OutputFormat
  /// The exceptions written, parents before their subdomains.
  public private(set) var active: [Exception] = []
  /// Exceptions the format cannot say (the wildcard format, or a name too long for an RPZ zone): the
  /// parent's entry still blocks the name.
  public private(set) var unexpressed: [Exception] = []
  private var byName: [String: Exception] = [:]
  /// Names whose subdomains only the format blocks (`CompiledList.subdomainBlocks`): a parent among them
  /// covers a name as a written parent does.
  public let below: Set<String>

  /// Whether no exception is written.
  public var isEmpty: Bool { active.isEmpty }

  /// Finds the exceptions among `candidates` that the format needs: those whose name a parent's entry
  /// (or, for `.below`, the name's own entry) would otherwise block. `isWritten` says whether a name is
  /// written as an entry of the format (listed, not allowed, not left out).
  public init(format: OutputFormat, candidates: [Exception], below: Set<String> = [], isWritten: (String) -> Bool) {
    self.format = format
    self.below = below
    guard format.coversSubdomains else { return }
    // Parents first: whether a name is covered depends on the exceptions above it.
    let ordered = candidates.enumerated().sorted {
      let (left, right) = (NameRules.parents(of: $0.element.name).count, NameRules.parents(of: $1.element.name).count)
      return left != right ? left < right : $0.offset < $1.offset
    }.map(\.element)
    for candidate in ordered {
      if let existing = byName[candidate.name] {
        // Two rules for one name: the wider reach wins (exact and below together are the subtree).
        guard existing.scope != candidate.scope, existing.scope != .subtree else { continue }
        var merged = existing
        merged.scope = .subtree
        replace(merged)
        continue
      }
      let needed =
        parentVerdict(candidate.name, isWritten: isWritten).isBlocked
        || (candidate.scope == .below && isWritten(candidate.name))
      guard needed else { continue }
      if format == .wildcard || (format == .rpz && candidate.name.utf8.count > Renderer.rpzNameLimit) {
        unexpressed.append(candidate)
        continue
      }
      byName[candidate.name] = candidate
      active.append(candidate)
    }
  }

  private mutating func replace(_ exception: Exception) {
    byName[exception.name] = exception
    if let index = active.firstIndex(where: { $0.name == exception.name }) { active[index] = exception }
  }

  /// The exception at exactly this name, if one is written.
  public func exception(at name: String) -> Exception? { byName[name] }

  /// Whether an exact exception also keeps its subdomains blocked (a re-block under it); unbound's
  /// `transparent` zone cannot, and lets them through.
  public var reblocksBelowExact: Bool { format != .unbound }

  /// The verdict of `name`: its own exception, its own entry, then its parents, nearest first.
  public func verdict(_ name: String, isWritten: (String) -> Bool) -> Verdict {
    if let exception = byName[name], exception.scope != .below { return .excepted(exception) }
    if isWritten(name) { return .listed }
    return parentVerdict(name, isWritten: isWritten)
  }

  /// The verdict a name gets from its parents alone (what compression asks: is it covered already?).
  public func parentVerdict(_ name: String, isWritten: (String) -> Bool) -> Verdict {
    for parent in NameRules.parents(of: name) {
      if let exception = byName[parent] {
        switch exception.scope {
        case .subtree, .below:
          return .excepted(exception)
        case .exact:
          // Its subdomains stay blocked where the format re-blocks them: the walk goes on to the entry
          // that covers the exception itself.
          guard reblocksBelowExact else { return .excepted(exception) }
          continue
        }
      }
      if isWritten(parent) || below.contains(parent) { return .covered(parent: parent) }
    }
    return .notCovered
  }

  /// Names written with an exception at themselves and so skipped by the renderer's main pass (a written
  /// name with a `.below` exception: the exception's lines block it and open its subdomains).
  public var ownEntries: Set<String> {
    Set(active.filter { $0.scope == .below }.map(\.name))
  }

  /// For RPZ: the names between an exception and the node whose record blocks it, which must be blocked
  /// by records of their own. A record below a wildcard's owner makes the names above it exist in the
  /// zone, and BIND (which reads the zone as DNS does) then no longer matches them with that wildcard.
  public func rpzIntermediates(isWritten: (String) -> Bool) -> [String] {
    guard format == .rpz else { return [] }
    var seen: Set<String> = []
    var result: [String] = []
    for exception in active where !(exception.scope == .below && isWritten(exception.name)) {
      var between: [String] = []
      var covered = false
      for parent in NameRules.parents(of: exception.name) {
        if isWritten(parent) || byName[parent] != nil || below.contains(parent) {
          covered = true
          break
        }
        between.append(parent)
      }
      // An active exception is always covered; the check keeps a bug from blocking a whole top-level domain.
      guard covered else { continue }
      for name in between.reversed() where seen.insert(name).inserted { result.append(name) }
    }
    return result
  }
}

extension NameRules {
  /// A name's parents, nearest first (`a.b.example.com`: `b.example.com`, `example.com`, `com`).
  public static func parents(of name: String) -> [String] {
    var result: [String] = []
    var rest = Substring(name)
    while let dot = rest.firstIndex(of: ".") {
      rest = rest[rest.index(after: dot)...]
      result.append(String(rest))
    }
    return result
  }
}
