#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines of any supported format and collects the names they block.
///
/// In automatic mode each line is recognised by its shape (`||x^`, `*.x`, `address=/x/`,
/// `local-zone:`, `x CNAME .`, an address followed by names, or a bare name), so mixed lists work.
/// A forced format accepts only its own lines (hosts and plain-domain lines are accepted by each
/// other, and plain names by the wildcard format); other lines count as `wrongFormat`.
///
/// Lines never stop the parser: each rejected token is counted with its reason and line number.
///
/// Not copyable: it owns a scratch buffer, freed exactly once when it goes away (a copy would free it
/// twice).
public struct LineParser: ~Copyable {
  /// The format lines must be in, or `nil` to recognise each line.
  public let format: InputFormat?
  /// What was parsed so far.
  public private(set) var result = ParsedNames()
  private let scratch: UnsafeMutableBufferPointer<UInt8>
  /// Lines per format, indexed by `InputFormat.ordinal` (a dictionary update per line is too slow).
  private var formatLines = [Int](repeating: 0, count: InputFormat.allCases.count)
  /// Whether line 1 may start with a byte-order mark (true for the first block of a source).
  public var stripsByteOrderMark = true

  /// Creates a parser for a forced format, or for any format when `format` is `nil`.
  public init(format: InputFormat? = nil) {
    self.format = format
    scratch = .allocate(capacity: 256)
  }

  /// Creates a parser that collects into `spare`'s room (emptied first) instead of new arrays; with
  /// `recordsOrigins`, each name's line number and line start are kept too.
  init(format: InputFormat?, reusing spare: consuming ParsedNames?, recordsOrigins: Bool = false) {
    self.init(format: format)
    if var reused = spare.take() {
      reused.clear()
      result = consume reused
    }
    result.recordsOrigins = recordsOrigins
  }

  deinit { scratch.deallocate() }

  /// Returns what was parsed; the parser is used up (its scratch buffer freed).
  public consuming func finish() -> ParsedNames {
    for format in InputFormat.allCases where formatLines[format.ordinal] > 0 {
      result.findings.formats[format, default: 0] += formatLines[format.ordinal]
    }
    return result
  }

  /// Parses every line of a buffer; a last line without newline counts too.
  public mutating func parse(buffer: UnsafeBufferPointer<UInt8>, firstLine: Int = 1) {
    result.reserve(bytes: buffer.count)
    result.sourceBytes += buffer.count
    var start = 0
    var number = firstLine
    var checkpoint = 0  // the next line starting at or after this is a checkpoint
    let records = result.recordsOrigins
    while start < buffer.count {
      var end = start
      if let base = buffer.baseAddress, let found = memchr(base + start, 0x0A, buffer.count - start) {
        end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
      } else {
        end = buffer.count
      }
      if records {
        result.currentLineStart = UInt32(truncatingIfNeeded: start)
        if start >= checkpoint {
          result.checkpoints.append(UInt32(truncatingIfNeeded: start))
          result.checkpoints.append(UInt32(truncatingIfNeeded: number))
          checkpoint = start + Origins.checkpointSpacing
        }
      }
      parse(line: UnsafeBufferPointer(rebasing: buffer[start..<end]), number: number)
      number += 1
      start = end + 1
    }
  }

  /// Parses one line (without its newline).
  public mutating func parse(line raw: UnsafeBufferPointer<UInt8>, number: Int, tooLong: Bool = false) {
    result.findings.lines += 1
    result.lineCount += 1
    if tooLong || raw.count > BlockReader.maximumLineLength {
      result.findings.reject(.lineTooLong, line: number, text: UnsafeBufferPointer(rebasing: raw.prefix(160)))
      return
    }
    var line = raw
    if number == 1, stripsByteOrderMark { result.findings.content = Findings.ContentKind.of(raw) }
    if number == 1, stripsByteOrderMark, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
      line = UnsafeBufferPointer(rebasing: line.dropFirst(3))
    }
    line = trimmed(line)
    guard let first = line.first else {
      result.findings.ignoredLines += 1
      return
    }
    switch first {
    case UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: ";"), UInt8(ascii: "["):
      result.findings.ignoredLines += 1
      return
    default:
      break
    }

    let kind = LineKind.of(line)
    if let format, !kind.fits(format) {
      if case .ignored = kind {
        result.findings.ignoredLines += 1
      } else {
        result.findings.reject(.wrongFormat, line: number, text: line)
      }
      return
    }
    switch kind {
    case .ignored:
      result.findings.ignoredLines += 1
    case .unsupported:
      result.findings.reject(.unsupportedRule, line: number, text: line)
    case .malformed:
      let binary = line.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
      result.findings.reject(binary ? .binaryData : .malformedLine, line: number, text: line)
    case .adblock(let name), .wildcard(let name):
      count(kind.format!, if: emit(UnsafeBufferPointer(rebasing: line[name]), number: number))
    case .exception(let name):
      listRule(UnsafeBufferPointer(rebasing: line[name]), number: number, in: \.exceptions)
    case .subdomains(let name):
      listRule(UnsafeBufferPointer(rebasing: line[name]), number: number, in: \.subdomainBlocks)
    case .plain:
      plainLine(line, number: number)
    case .hosts(let address, let end):
      hostsLine(line, address: address, addressEnd: end, number: number)
    case .dnsmasq:
      dnsmasqLine(line, number: number)
    case .unbound:
      unboundLine(line, number: number)
    case .rpz:
      rpzLine(line, number: number)
    }
  }

  /// Validates a token and appends it, or counts why not; returns whether it was a valid name.
  @discardableResult
  private mutating func emit(_ token: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
    var hash: UInt64?
    switch NameRules.normalize(token, into: scratch, hash: &hash) {
    case .valid(let length):
      result.append(UnsafeBufferPointer(rebasing: scratch[0..<length]), hash: hash)
      result.findings.names += 1
      return true
    case .rejected(let reason):
      result.findings.reject(reason, line: number, text: token)
      return false
    }
  }

  /// Keeps a list's own rule, validated as a name is: a `@@||name^` exception for the profile's allow
  /// rules (`exceptions`), or a `||*.name^` subdomains-only block for its deny rules (`subdomainBlocks`).
  private mutating func listRule(
    _ token: UnsafeBufferPointer<UInt8>, number: Int, in rules: WritableKeyPath<Findings, [Findings.Sample]?>
  ) {
    var hash: UInt64?
    switch NameRules.normalize(token, into: scratch, hash: &hash) {
    case .valid(let length):
      let name = String(decoding: UnsafeBufferPointer(rebasing: scratch[0..<length]), as: UTF8.self)
      if result.findings.keep(name, line: number, in: rules) { count(.adblock, if: true) }
    case .rejected(let reason):
      result.findings.reject(reason, line: number, text: token)
    }
  }

  /// Each name of a plain line, up to a comment (`#`, glued to a name or not): one name on most lines,
  /// several on some, each validated and counted on its own.
  private mutating func plainLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
    var index = 0
    var accepted = false
    while true {
      while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
      if index >= line.count || line[index] == UInt8(ascii: "#") { break }
      let end = tokenEnd(line, from: index, orHash: true)
      if emit(UnsafeBufferPointer(rebasing: line[index..<end]), number: number) { accepted = true }
      index = end
    }
    count(.domains, if: accepted)
  }

  /// Counts a line as written in a format (only lines that gave a name count, so junk decides nothing).
  private mutating func count(_ format: InputFormat, if accepted: Bool) {
    if accepted { formatLines[format.ordinal] += 1 }
  }

  // MARK: Formats with addresses and directives

  private mutating func hostsLine(_ line: UnsafeBufferPointer<UInt8>, address: Address, addressEnd: Int, number: Int) {
    // A sentence that starts with an address ("192.168.0.1 is the router's address") is text, not an entry:
    // one malformed line, not a redirect or a reject per word. A sentence has no dotted name in it, so a
    // line whose first word is a valid name is none, and only other lines are checked: scanning every
    // line for that was 7 % of a 5M-line compile.
    guard address.blocks else {
      let reason: RejectReason = isProse(line, from: addressEnd) ? .malformedLine : .nonBlockingAddress
      result.findings.reject(reason, line: number, text: line)
      return
    }
    var index = addressEnd
    var names = 0
    var accepted = false
    while true {
      while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
      if index >= line.count || line[index] == UInt8(ascii: "#") { break }
      // hosts(5): from `#` to the end of the line is a comment, also with no space before it
      // (`0.0.0.0 a.example.com#note`).
      let end = tokenEnd(line, from: index, orHash: true)
      let comment = end < line.count && line[end] == UInt8(ascii: "#")
      let token = UnsafeBufferPointer(rebasing: line[index..<end])
      if names == 0 {
        var hash: UInt64?
        switch NameRules.normalize(token, into: scratch, hash: &hash) {
        case .valid(let length):
          result.append(UnsafeBufferPointer(rebasing: scratch[0..<length]), hash: hash)
          result.findings.names += 1
          accepted = true
        case .rejected(let reason):
          if isProse(line, from: addressEnd) {
            result.findings.reject(.malformedLine, line: number, text: line)
            return
          }
          result.findings.reject(reason, line: number, text: token)
        }
      } else if emit(token, number: number) {
        accepted = true
      }
      names += 1
      index = end
      if comment { break }
    }
    if names == 0 {
      // An address alone (`0.0.0.0`) blocks nothing.
      result.findings.reject(.malformedLine, line: number, text: line)
    } else {
      count(.hosts, if: accepted)
    }
  }

  private mutating func dnsmasqLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
    // key=/name/name/…/target
    guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
      result.findings.reject(.malformedLine, line: number, text: line)
      return
    }
    let key = String(decoding: line[..<equals], as: UTF8.self)
    // A value has no space: what follows one is a comment (`address=/ads.example.com/0.0.0.0 # note`).
    let valueEnd = line[(equals + 1)...].firstIndex { $0 == 0x20 || $0 == 0x09 } ?? line.count
    let value = line[(equals + 1)..<valueEnd]
    guard ["address", "local", "server"].contains(key), value.first == UInt8(ascii: "/") else {
      result.findings.reject(.unsupportedRule, line: number, text: line)
      return
    }
    let parts = value.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    guard parts.count >= 2 else {
      result.findings.reject(.malformedLine, line: number, text: line)
      return
    }
    let target = parts[parts.count - 1]
    let names = parts.dropLast()
    let blocks: Bool
    switch key {
    case "address":
      let text = UnsafeBufferPointer(rebasing: target)
      blocks =
        target.isEmpty || (target.count == 1 && target.first == UInt8(ascii: "#")) || Address.classify(text).blocks
    case "local":
      blocks = target.isEmpty
    default:  // server=/name/ with no upstream answers locally only; with one it forwards.
      blocks = target.isEmpty
    }
    guard blocks else {
      result.findings.reject(.nonBlockingAddress, line: number, text: line)
      return
    }
    var accepted = false
    for name in names {
      if name.isEmpty {
        result.findings.reject(.malformedLine, line: number, text: line)
        continue
      }
      if emit(UnsafeBufferPointer(rebasing: name), number: number) { accepted = true }
    }
    count(.dnsmasq, if: accepted)
  }

  private static let blockingZoneTypes: Set<String> = [
    "static", "deny", "refuse", "always_refuse", "always_nxdomain", "always_null", "always_deny", "inform_deny",
  ]

  private mutating func unboundLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
    let tokens = Tokens(line, quotes: true)
    let directive = String(decoding: tokens[0, in: line], as: UTF8.self)
    switch directive {
    case "local-zone:":
      guard tokens.count == 3 else {
        result.findings.reject(.malformedLine, line: number, text: line)
        return
      }
      guard Self.blockingZoneTypes.contains(String(decoding: tokens[2, in: line], as: UTF8.self)) else {
        result.findings.reject(.unsupportedRule, line: number, text: line)
        return
      }
      count(.unbound, if: emit(tokens[1, in: line], number: number))
    case "local-data:":
      // local-data: "name [TTL] [IN] A|AAAA address"
      let record = Tokens(tokens[1, in: line])
      let fields = (0..<record.count).map { String(decoding: record[$0, in: tokens[1, in: line]], as: UTF8.self) }
      guard let type = fields.firstIndex(where: { ["A", "AAAA"].contains($0.uppercased()) }), type + 1 < fields.count
      else {
        result.findings.reject(.unsupportedRule, line: number, text: line)
        return
      }
      guard Address.classify(fields[type + 1]).blocks else {
        result.findings.reject(.nonBlockingAddress, line: number, text: line)
        return
      }
      count(.unbound, if: emit(record[0, in: tokens[1, in: line]], number: number))
    default:
      result.findings.reject(.unsupportedRule, line: number, text: line)
    }
  }

  private mutating func rpzLine(_ line: UnsafeBufferPointer<UInt8>, number: Int) {
    // owner [TTL] [IN] TYPE target
    let tokens = Tokens(line)
    let fields = (0..<tokens.count).map { String(decoding: tokens[$0, in: line], as: UTF8.self) }
    guard
      let typeIndex = fields.indices.dropFirst().first(where: {
        ["CNAME", "A", "AAAA"].contains(fields[$0].uppercased())
      }),
      typeIndex + 1 < fields.count
    else {
      result.findings.reject(.unsupportedRule, line: number, text: line)
      return
    }
    let target = fields[typeIndex + 1].lowercased()
    let blocks: Bool
    if fields[typeIndex].uppercased() == "CNAME" {
      if target == "rpz-passthru." {
        result.findings.reject(.unsupportedRule, line: number, text: line)
        return
      }
      blocks = target == "." || target == "*." || target == "rpz-drop."
    } else {
      blocks = Address.classify(target).blocks
    }
    guard blocks else {
      result.findings.reject(.nonBlockingAddress, line: number, text: line)
      return
    }
    var owner = tokens[0, in: line]
    if owner.count > 2, owner[owner.startIndex] == UInt8(ascii: "*"), owner[owner.startIndex + 1] == UInt8(ascii: ".") {
      owner = UnsafeBufferPointer(rebasing: owner.dropFirst(2))
    }
    count(.rpz, if: emit(owner, number: number))
  }

  // MARK: Helpers

  /// Whether the words after a hosts line's address read as prose: none is a dotted name, and there
  /// are three or more of them or one holds punctuation no host name has (`router's`, `address,`).
  private func isProse(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    // Plain index loops: this runs on every hosts line, and stops at the first word's first inner dot.
    var index = start
    var words = 0
    var punctuation = false
    while true {
      // Every byte below 0x21 separates words here (a NUL or control byte too, or the loop would stall).
      while index < line.count, line[index] < 0x21 { index += 1 }
      if index >= line.count || line[index] == UInt8(ascii: "#") { break }
      let wordStart = index
      while index < line.count, line[index] > 0x20 {
        switch line[index] {
        case UInt8(ascii: "."):
          // A dot inside the word (a character of it on each side) makes it a dotted name: an entry,
          // not prose. (Until 24 Nov each word was scanned to its end first: 18 % of a 5M-line compile.)
          if index > wordStart, index + 1 < line.count, line[index + 1] > 0x20 { return false }
        case UInt8(ascii: "<"), UInt8(ascii: ">"):
          // Markup (`1.2.3.4 <b>example.org</b>`, a web page's table): text, never a redirect.
          return true
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: ")"),
          UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ";"):
          punctuation = true
        default:
          break
        }
        index += 1
      }
      words += 1
    }
    return words >= 3 || (words > 0 && punctuation)
  }

  private func trimmed(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = line.startIndex
    var end = line.endIndex
    while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
    while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 || line[end - 1] == 0x0D { end -= 1 }
    return UnsafeBufferPointer(rebasing: line[start..<end])
  }

  /// Where the token starting at `start` ends: at the next space or tab (or, with `orHash`, `#`), or the
  /// end of the line.
  private func tokenEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int, orHash: Bool = false) -> Int {
    var index = start
    if let base = line.baseAddress {
      // Eight bytes at a time until one of them is below 0x21 (a space, tab or control byte), or `#`. The
      // lowest bit of each mask is exact (a false bit only follows a true one), so the lowest of both is.
      let hashes = orHash ? SWAR.ones &* 0x23 : 0
      while index + 8 <= line.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        var stops = (word &- SWAR.ones &* 0x21) & ~word & SWAR.high
        if orHash {
          let hash = word ^ hashes
          stops |= (hash &- SWAR.ones) & ~hash & SWAR.high
        }
        if stops != 0 {
          index += stops.trailingZeroBitCount >> 3
          break
        }
        index += 8
      }
    }
    while index < line.count, line[index] != 0x20, line[index] != 0x09, !orHash || line[index] != UInt8(ascii: "#") {
      index += 1
    }
    return index
  }
}
