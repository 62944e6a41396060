/// The Public Suffix List: names under which anyone can register (`co.uk`, `github.io`, `servebbs.net`).
///
/// Blocking such a name exactly is harmless, but in a format that also blocks subdomains it would block
/// every site registered under it, so renderers of those formats leave public suffixes out.
public struct PublicSuffixList: Sendable {
  private let ruleHashes: HashFilter
  private let wildcardHashes: HashFilter
  private let exact: Exact

  /// The list bundled with SaneHosts.
  public static let bundled = PublicSuffixList(rules: bundledRules, exact: .bundled)

  /// Parses rules in the list's syntax: one per line, `*.` wildcards, `!` exceptions, `//` comments.
  public init(rules text: String) {
    self.init(rules: text, exact: .parsed(Rules(text)))
  }

  private init(rules text: String, exact: Exact) {
    var ruleHashes: [UInt64] = []
    var wildcardHashes: [UInt64] = []
    Self.scan(text) { kind, rule in
      switch kind {
      case .rule: ruleHashes.append(NameHash.hash(rule))
      case .wildcard: wildcardHashes.append(NameHash.hash(rule))
      case .exception: break
      }
    }
    self.ruleHashes = HashFilter(ruleHashes)
    self.wildcardHashes = HashFilter(wildcardHashes)
    self.exact = exact
  }

  /// Whether a normalised name is itself a public suffix (`co.uk` is; `example.co.uk` is not).
  public func isPublicSuffix(_ name: String) -> Bool {
    var name = name
    return name.withUTF8 { isPublicSuffix($0, hash: NameHash.hash($0)) }
  }

  /// Whether a name given as bytes (with its `NameHash`) is a public suffix; fast when it is not.
  func isPublicSuffix(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    var candidate = ruleHashes.contains(hash)
    if !candidate, let dot = name.firstIndex(of: UInt8(ascii: ".")) {
      let parent = UnsafeBufferPointer(rebasing: name[(dot + 1)...])
      candidate = wildcardHashes.contains(NameHash.hash(parent))
    }
    return candidate && exact.rules.isPublicSuffix(String(decoding: name, as: UTF8.self))
  }

  /// The rules as text, for the exact answer once a name's hash matched one.
  ///
  /// The bundled list's are built on the first such match, not at start: 9,949 strings hashed into sets
  /// took 2.5 ms of every compile, most of which never meet a public suffix.
  private enum Exact: Sendable {
    case bundled
    case parsed(Rules)

    static let bundledRules = Rules(PublicSuffixList.bundledRules)

    var rules: Rules {
      switch self {
      case .bundled: Self.bundledRules
      case .parsed(let rules): rules
      }
    }
  }

  /// The rules, wildcards and exceptions as sets of names.
  private struct Rules: Sendable {
    var rules = Set<String>()
    var wildcards = Set<String>()
    var exceptions = Set<String>()

    init(_ text: String) {
      PublicSuffixList.scan(text) { kind, rule in
        let name = String(decoding: rule, as: UTF8.self)
        switch kind {
        case .rule: rules.insert(name)
        case .wildcard: wildcards.insert(name)
        case .exception: exceptions.insert(name)
        }
      }
    }

    func isPublicSuffix(_ name: String) -> Bool {
      if rules.contains(name) { return true }
      if exceptions.contains(name) { return false }
      guard let dot = name.firstIndex(of: ".") else { return false }
      return wildcards.contains(String(name[name.index(after: dot)...]))
    }
  }

  /// What a line of the list is.
  enum Kind { case rule, wildcard, exception }

  /// Calls `visit` with each rule of the text: a rule, a wildcard's parent (`ck` of `*.ck`) or an
  /// exception's name (`www.ck` of `!www.ck`), trimmed, comments and blank lines skipped.
  ///
  /// Read as bytes: split into `Character`s, the bundled list's 9,949 rules took 9 ms to parse.
  static func scan(_ text: String, _ visit: (Kind, UnsafeBufferPointer<UInt8>) -> Void) {
    var text = text
    text.withUTF8 { bytes in
      @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
      var start = 0
      while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        var lower = start
        var upper = end
        start = end + 1
        while lower < upper && isSpace(bytes[lower]) { lower += 1 }
        while upper > lower && isSpace(bytes[upper - 1]) { upper -= 1 }
        let rule = UnsafeBufferPointer(rebasing: bytes[lower..<upper])
        guard let first = rule.first, !(first == UInt8(ascii: "/") && rule.count > 1 && rule[1] == first) else {
          continue
        }
        if first == UInt8(ascii: "!") {
          visit(.exception, UnsafeBufferPointer(rebasing: rule.dropFirst()))
        } else if first == UInt8(ascii: "*"), rule.count > 2, rule[1] == UInt8(ascii: ".") {
          visit(.wildcard, UnsafeBufferPointer(rebasing: rule[2...]))
        } else {
          visit(.rule, rule)
        }
      }
    }
  }
}
