/// The Public Suffix List: names under which anyone can register (`co.uk`, `github.io`, `servebbs.net`).
///
/// Blocking such a name exactly is harmless, but in a format that also blocks subdomains it would block
/// every site registered under it, so renderers of those formats leave public suffixes out.
public struct PublicSuffixList: Sendable {
  private let rules: Set<String>
  private let wildcards: Set<String>
  private let exceptions: Set<String>
  private let ruleHashes: HashFilter
  private let wildcardHashes: HashFilter

  /// The list bundled with SaneHosts.
  public static let bundled = PublicSuffixList(rules: bundledRules)

  /// Parses rules in the list's syntax: one per line, `*.` wildcards, `!` exceptions, `//` comments.
  public init(rules text: String) {
    var rules = Set<String>()
    var wildcards = Set<String>()
    var exceptions = Set<String>()
    for raw in text.split(whereSeparator: \.isNewline) {
      let rule = raw.trimmingWhitespace
      if rule.isEmpty || rule.hasPrefix("//") { continue }
      if rule.hasPrefix("!") {
        exceptions.insert(String(rule.dropFirst()))
      } else if rule.hasPrefix("*.") {
        wildcards.insert(String(rule.dropFirst(2)))
      } else {
        rules.insert(String(rule))
      }
    }
    self.rules = rules
    self.wildcards = wildcards
    self.exceptions = exceptions
    ruleHashes = HashFilter(rules.map(Self.hash))
    wildcardHashes = HashFilter(wildcards.map(Self.hash))
  }

  private static func hash(_ text: String) -> UInt64 {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { NameHash.hash(UnsafeBufferPointer($0)) }
  }

  /// Whether a normalised name is itself a public suffix (`co.uk` is; `example.co.uk` is not).
  public func isPublicSuffix(_ name: String) -> Bool {
    if rules.contains(name) { return true }
    if exceptions.contains(name) { return false }
    guard let dot = name.firstIndex(of: ".") else { return false }
    return wildcards.contains(String(name[name.index(after: dot)...]))
  }

  /// Whether a name given as bytes (with its `NameHash`) is a public suffix; fast when it is not.
  func isPublicSuffix(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    var candidate = ruleHashes.contains(hash)
    if !candidate, let dot = name.firstIndex(of: UInt8(ascii: ".")) {
      let parent = UnsafeBufferPointer(rebasing: name[(dot + 1)...])
      candidate = wildcardHashes.contains(NameHash.hash(parent))
    }
    return candidate && isPublicSuffix(String(decoding: name, as: UTF8.self))
  }
}

extension Substring {
  fileprivate var trimmingWhitespace: Substring {
    var text = self
    while text.first?.isWhitespace == true { text = text.dropFirst() }
    while text.last?.isWhitespace == true { text = text.dropLast() }
    return text
  }
}
