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
  ///
  /// Read as bytes: split into `Character`s, the bundled list's 9,949 rules took 9 ms to parse, on
  /// the way of every drop-in rendered.
  public init(rules text: String) {
    var rules = Set<String>()
    var wildcards = Set<String>()
    var exceptions = Set<String>()
    var ruleHashes: [UInt64] = []
    var wildcardHashes: [UInt64] = []
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
          exceptions.insert(String(decoding: rule.dropFirst(), as: UTF8.self))
        } else if first == UInt8(ascii: "*"), rule.count > 2, rule[1] == UInt8(ascii: ".") {
          let parent = UnsafeBufferPointer(rebasing: rule[2...])
          wildcards.insert(String(decoding: parent, as: UTF8.self))
          wildcardHashes.append(NameHash.hash(parent))
        } else {
          rules.insert(String(decoding: rule, as: UTF8.self))
          ruleHashes.append(NameHash.hash(rule))
        }
      }
    }
    self.rules = rules
    self.wildcards = wildcards
    self.exceptions = exceptions
    self.ruleHashes = HashFilter(ruleHashes)
    self.wildcardHashes = HashFilter(wildcardHashes)
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
