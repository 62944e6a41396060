/// The shape of a trimmed, non-comment line: which format it is written in.
enum LineKind {
  /// A line that carries no names: `server:`, `$TTL`, zone SOA/NS records and their continuations.
  case ignored
  /// A valid rule that is not a DNS block (adblock paths, options, exceptions, cosmetic filters).
  case unsupported
  /// Nothing recognisable.
  case malformed
  /// `||name^`: the range of the name.
  case adblock(Range<Int>)
  /// `@@||name^`: an exception of an adblock list, the range of the name.
  case exception(Range<Int>)
  /// `||*.name^` or `.name^|` (`.name^`): the name's subdomains only, the range of the name.
  case subdomains(Range<Int>)
  /// `*.name`: the range of the name.
  case wildcard(Range<Int>)
  /// Bare names: one, or several separated by spaces or tabs (each validated), before a comment.
  case plain
  /// An address followed by names; the address's kind and where its token ends.
  case hosts(Address, end: Int)
  /// `address=`, `local=`, `server=` and other dnsmasq directives.
  case dnsmasq
  /// `local-zone:`, `local-data:` and other unbound directives.
  case unbound
  /// A resource record of a response-policy zone.
  case rpz

  /// The format the kind belongs to, for counting.
  var format: InputFormat? {
    switch self {
    case .adblock, .exception, .subdomains: .adblock
    case .wildcard: .wildcard
    case .plain: .domains
    case .hosts: .hosts
    case .dnsmasq: .dnsmasq
    case .unbound: .unbound
    case .rpz: .rpz
    case .ignored, .unsupported, .malformed: nil
    }
  }

  /// Whether a line of this kind belongs in a list forced to `format`.
  func fits(_ format: InputFormat) -> Bool {
    switch (self, format) {
    case (.ignored, _), (.unsupported, _), (.malformed, _): true
    case (.hosts, .hosts), (.plain, .hosts), (.plain, .domains), (.hosts, .domains): true
    case (.wildcard, .wildcard), (.plain, .wildcard): true
    case (.adblock, .adblock), (.exception, .adblock), (.subdomains, .adblock), (.dnsmasq, .dnsmasq),
      (.unbound, .unbound), (.rpz, .rpz):
      true
    default: false
    }
  }

  /// The name of `||name^` (or `||name^|`, or `||name` with nothing after it) starting at `start`, when
  /// the rest of the line is exactly that; nil for paths, options and wildcards, which are no DNS rule.
  /// `||name` alone blocks the name as `||name^` does: HostlistCompiler keeps it and AdGuard Home's DNS
  /// engine matches the host with it (a DNS query has no path for the missing separator to stand for).
  static func hostAnchored(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
    let count = line.count
    guard count - start > 3, line[start] == UInt8(ascii: "|"), line[start + 1] == UInt8(ascii: "|") else {
      return nil
    }
    return caretEnded(line, from: start + 2, bareEnd: true)
  }

  /// The name from `start` to the separator that ends it, when the rule means the whole host: `^` or
  /// `^|` at the end, `|` (the end of the address) or `/*` (any path), optionally with the one option
  /// that keeps a DNS block a block, `$important` (AdGuard's DNS filtering syntax). Other options
  /// (`$dnstype`, `$client`, `$denyallow`…) narrow the rule, and paths are a browser's business: nil.
  static func caretEnded(_ line: UnsafeBufferPointer<UInt8>, from start: Int, bareEnd: Bool = false) -> Range<Int>? {
    var count = line.count
    // A comment after the rule (`||ads.example.com^ # note`, or glued, `^#note`), as Pi-hole reads it;
    // `##`, `#@#` and the like are cosmetic rules, found before this is asked.
    if let hash = line[start...].firstIndex(of: UInt8(ascii: "#")) {
      count = hash
      while count > start, line[count - 1] == 0x20 || line[count - 1] == 0x09 { count -= 1 }
    }
    if count - start > 10, matches(line, (count - 10)..<count, "$important") { count -= 10 }
    guard start < count else { return nil }
    var caret = start
    while caret < count, line[caret] != UInt8(ascii: "^"), line[caret] != UInt8(ascii: "|"),
      line[caret] != UInt8(ascii: "/")
    {
      caret += 1
    }
    guard caret > start, caret < count || bareEnd else { return nil }
    let rest = caret + 1
    switch caret < count ? line[caret] : UInt8(ascii: "^") {
    case UInt8(ascii: "^"):
      guard caret == count || rest == count || (rest + 1 == count && line[rest] == UInt8(ascii: "|")) else {
        return nil
      }
    case UInt8(ascii: "|"): guard rest == count else { return nil }
    default: guard rest + 1 == count, line[rest] == UInt8(ascii: "*") else { return nil }
    }
    for index in start..<caret {
      switch line[index] {
      case UInt8(ascii: "/"), UInt8(ascii: "*"), UInt8(ascii: ":"), UInt8(ascii: "$"), UInt8(ascii: "|"),
        UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "&"), 0x20, 0x09:
        return nil
      default: continue
      }
    }
    return start..<caret
  }

  /// The name of a subdomains-only rule: `||*.name^` (AdGuard's wildcard) or `.name^`, `.name^|` (a
  /// hostname ending in `.name`), each optionally with `|` at the end.
  static func subdomainsAnchored(_ line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    if line.count > 5, line[0] == UInt8(ascii: "|"), line[1] == UInt8(ascii: "|"), line[2] == UInt8(ascii: "*"),
      line[3] == UInt8(ascii: ".")
    {
      return caretEnded(line, from: 4)
    }
    if line.count > 2, line[0] == UInt8(ascii: "."), line[1] != UInt8(ascii: ".") { return caretEnded(line, from: 1) }
    return nil
  }

  /// `0.0.0.0` and a space or a tab, as the first eight bytes of a line read as one (little-endian)
  /// word. Literals, not computed: a computed static is checked for initialisation on every line.
  static let nullSpace: UInt64 = 0x2030_2E30_2E30_2E30
  static let nullTab: UInt64 = 0x0930_2E30_2E30_2E30
  /// `127.0.0.` as one word, then `1` and a space or a tab as two bytes.
  static let loopbackStart: UInt64 = 0x2E30_2E30_2E37_3231
  static let loopbackSpace: UInt16 = 0x2031
  static let loopbackTab: UInt16 = 0x0931

  /// Recognises a trimmed line that is neither empty nor a comment.
  static func of(_ line: UnsafeBufferPointer<UInt8>) -> LineKind {
    let count = line.count
    let first = line[0]
    let second: UInt8 = count > 1 ? line[1] : 0

    // Fast path for the commonest line: an address, then names; `0.0.0.0` and `127.0.0.1`, which start
    // most lines of most hosts lists, are recognised by comparing words.
    if count > 8, let base = line.baseAddress {
      let word = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
      if word == nullSpace || word == nullTab { return .hosts(.null, end: 7) }
      if count > 10, word == loopbackStart {
        let rest = UnsafeRawPointer(base + 8).loadUnaligned(as: UInt16.self)
        if rest == loopbackSpace || rest == loopbackTab { return .hosts(.loopback, end: 9) }
      }
    }
    if first &- UInt8(ascii: "0") < 10 || first == UInt8(ascii: ":") {
      var end = 1
      while end < count, line[end] != 0x20, line[end] != 0x09 { end += 1 }
      let address = Address.classify(UnsafeBufferPointer(rebasing: line[0..<end]))
      // `0` is an address only before a dotted name (`0 ads.example.com`), not a zone file's number.
      if address != .none && (end > 1 || line[end...].contains(UInt8(ascii: "."))) { return .hosts(address, end: end) }
    }

    if first == UInt8(ascii: "|") {
      if let name = hostAnchored(line, from: 0) { return .adblock(name) }
      return subdomainsAnchored(line).map { .subdomains($0) } ?? .unsupported
    }
    if first == UInt8(ascii: "."), let name = subdomainsAnchored(line) { return .subdomains(name) }
    if first == UInt8(ascii: "@") && second == UInt8(ascii: "@") {
      // `@@||name^`: the list's own exception (AdGuard and uBlock read it for the name and its subdomains);
      // with a path or options it is a browser rule, not a DNS one.
      return hostAnchored(line, from: 2).map { .exception($0) } ?? .unsupported
    }
    if first == UInt8(ascii: "/") { return .unsupported }
    if hasCosmeticMarker(line) { return .unsupported }

    if first == UInt8(ascii: "*") && second == UInt8(ascii: ".") {
      var end = 2
      // A `#` glued to the name starts a comment (`*.ads.example.com#note`).
      while end < count, line[end] != 0x20, line[end] != 0x09, line[end] != UInt8(ascii: "#") { end += 1 }
      if line[2..<end].contains(UInt8(ascii: "*")) { return .unsupported }
      // `*.name CNAME .` is an RPZ record: let the token analysis below see it.
      if onlyCommentAfter(line, from: end) { return .wildcard(2..<end) }
    }

    return byTokens(line)
  }

  /// A line that no marker recognised, by its tokens: the first decides (a dnsmasq or unbound directive,
  /// a zone file's own lines), then how many there are and whether one is a record type.
  @inline(__always)
  private static func byTokens(_ line: UnsafeBufferPointer<UInt8>) -> LineKind {
    let count = line.count
    let first = line[0]
    var firstEnd = 0
    var equals = -1
    while firstEnd < count, line[firstEnd] != 0x20, line[firstEnd] != 0x09 {
      if line[firstEnd] == UInt8(ascii: "=") && equals < 0 { equals = firstEnd }
      // A `#` glued to a name starts a comment, as in hosts(5) (`ads.example.com# note`); not in a
      // dnsmasq directive, where `address=/name/#` is the null address.
      if line[firstEnd] == UInt8(ascii: "#") && equals < 0 { break }
      firstEnd += 1
    }
    if firstEnd == 0 { return .malformed }
    if equals > 0 && isWord(line, 0..<equals) { return .dnsmasq }
    if line[firstEnd - 1] == UInt8(ascii: ":") && firstEnd > 1 && isWord(line, 0..<(firstEnd - 1)) {
      if matches(line, 0..<firstEnd, "server:") { return .ignored }
      return .unbound
    }
    if first == UInt8(ascii: "$") || first == UInt8(ascii: "@") || first == UInt8(ascii: ")")
      || matches(line, 0..<firstEnd, "IN") || matches(line, 0..<firstEnd, "NS") || matches(line, 0..<firstEnd, "SOA")
    {
      return .ignored
    }

    let firstToken = UnsafeBufferPointer(rebasing: line[0..<firstEnd])

    // Count the tokens before an inline comment, and look for a record type.
    var tokens = 1
    var hasRecordType = false
    var index = firstEnd
    while true {
      while index < count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
      if index >= count || line[index] == UInt8(ascii: "#") || line[index] == UInt8(ascii: ";") { break }
      var end = index
      while end < count, line[end] != 0x20, line[end] != 0x09 { end += 1 }
      if matches(line, index..<end, "CNAME") || matches(line, index..<end, "A") || matches(line, index..<end, "AAAA") {
        hasRecordType = true
      }
      tokens += 1
      index = end
    }
    if hasRecordType && tokens >= 3 { return .rpz }
    if tokens == 1 {
      if firstToken.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
        return .ignored  // an SOA field on a line of its own (serial, refresh…)
      }
      for byte in firstToken {
        switch byte {
        case UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "|"),
          UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: ","):
          return .unsupported
        default: continue
        }
      }
      return .plain
    }
    if tokens == 2, firstToken.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      return .ignored
    }
    // Several names on one line (`a.example.com b.example.com`), as hBlock, HostlistCompiler and
    // StevenBlack read them: when the first word is a dotted name (a sentence's first word is not).
    // Its last label starts with a letter, as a top-level domain does (`127.0.0.1x bad.example.com` is a
    // broken hosts line, not names).
    let word =
      firstToken.count > 1 && firstToken.last == UInt8(ascii: ".")
      ? UnsafeBufferPointer(rebasing: firstToken.dropLast()) : firstToken
    if !hasRecordType, let dot = word.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < word.count,
      (word[dot + 1] | 0x20) &- UInt8(ascii: "a") < 26
    {
      return .plain
    }
    return .malformed
  }

  /// `##`, `#@#`, `#?#`, `#$#`, `#%#`: element-hiding and scriptlet rules of adblock lists.
  private static func hasCosmeticMarker(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index + 1 < line.count {
      if line[index] == UInt8(ascii: "#") {
        let next = line[index + 1]
        if next == UInt8(ascii: "#") { return true }
        if index + 2 < line.count, line[index + 2] == UInt8(ascii: "#"),
          next == UInt8(ascii: "@") || next == UInt8(ascii: "?") || next == UInt8(ascii: "$")
            || next == UInt8(ascii: "%")
        {
          return true
        }
      }
      index += 1
    }
    return false
  }

  private static func onlyCommentAfter(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    var index = start
    while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
    return index == line.count || line[index] == UInt8(ascii: "#")
  }

  private static func isWord(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    !range.isEmpty
      && line[range].allSatisfy {
        ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
      }
  }

  private static func matches(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
    guard range.count == word.utf8CodeUnitCount else { return false }
    let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for (offset, byte) in bytes.enumerated() where line[range.lowerBound + offset] | 0x20 != byte | 0x20 {
      return false
    }
    return true
  }
}

/// The space- or tab-separated tokens of a line (optionally with `"quoted"` tokens), before a `#` comment.
struct Tokens {
  private var ranges: [Range<Int>] = []

  init(_ line: UnsafeBufferPointer<UInt8>, quotes: Bool = false) {
    var index = 0
    while true {
      while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
      if index >= line.count || line[index] == UInt8(ascii: "#") { break }
      if quotes && line[index] == UInt8(ascii: "\"") {
        let start = index + 1
        var end = start
        while end < line.count, line[end] != UInt8(ascii: "\"") { end += 1 }
        ranges.append(start..<end)
        index = min(end + 1, line.count)
        continue
      }
      var end = index
      while end < line.count, line[end] != 0x20, line[end] != 0x09 { end += 1 }
      ranges.append(index..<end)
      index = end
    }
  }

  var count: Int { ranges.count }

  /// The token at `index` as a slice of `line`, or an empty buffer when there is no such token.
  subscript(index: Int, in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard index < ranges.count else { return UnsafeBufferPointer(rebasing: line[0..<0]) }
    return UnsafeBufferPointer(rebasing: line[ranges[index]])
  }
}
