/// Space-separated tokens of one log line, read left to right without copying the line.
struct LineScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int

  init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0) {
    self.bytes = bytes
    self.index = index
  }

  /// The next token's range, nil at the end of the line.
  mutating func next() -> Range<Int>? {
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    guard index < bytes.count else { return nil }
    let start = index
    while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x09 { index += 1 }
    return start..<index
  }

  /// The tokens left, at most `limit` of them.
  mutating func rest(limit: Int = 16) -> [Range<Int>] {
    var tokens: [Range<Int>] = []
    while tokens.count < limit, let token = next() { tokens.append(token) }
    return tokens
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// A queried name as a log writes it, lower-cased, without its final dot.
  func name(_ range: Range<Int>) -> String {
    var end = range.upperBound
    if end > range.lowerBound + 1, bytes[end - 1] == 0x2E { end -= 1 }
    var lowered = [UInt8](UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end]))
    for index in lowered.indices where lowered[index] >= 0x41 && lowered[index] <= 0x5A { lowered[index] |= 0x20 }
    return String(decoding: lowered, as: UTF8.self)
  }

  /// The queried name at `range` (as `name`), or nil when it is no host name a query can ask: the
  /// line is then counted in `findings` under the reason, never as a query.
  func validName(_ range: Range<Int>, file: String, line: Int, findings: inout LogFindings) -> String? {
    if let problem = Self.nameProblem(UnsafeBufferPointer(rebasing: bytes[range])) {
      findings.skip("invalid name: \(problem)", file: file, line: line, text: bytes)
      return nil
    }
    return name(range)
  }

  /// Why a name as a log writes it is no host name (RFC 1035: at most 253 bytes, labels of 1 to 63; the
  /// bytes of host names, letters, digits and hyphens, IDNs in their xn-- form, and the underscore of
  /// service names such as `_dmarc`), or nil when it is one. The root (`.`) is a name.
  static func nameProblem(_ name: UnsafeBufferPointer<UInt8>) -> String? {
    var count = name.count
    if count > 1, name[count - 1] == 0x2E { count -= 1 }
    if count == 1 && name[0] == 0x2E { return nil }
    guard count > 0 else { return "an empty name" }
    if count > 253 { return "longer than 253 bytes" }
    // The bytes of a host name as two bit masks (0–63: digits and hyphen; 64–127: letters and
    // underscore): one shift and test a byte on every query line.
    let low: UInt64 = 0x03FF_2000_0000_0000
    let high: UInt64 = 0x07FF_FFFE_87FF_FFFE
    var label = 0
    for index in 0..<count {
      let byte = name[index]
      if byte == 0x2E {
        if label == 0 { return "an empty label" }
        label = 0
        continue
      }
      label += 1
      if label > 63 { return "a label longer than 63 bytes" }
      let allowed = byte < 64 ? (low >> UInt64(byte)) & 1 : byte < 128 ? (high >> UInt64(byte - 64)) & 1 : 0
      if allowed == 0 { return "a byte outside letters, digits, hyphen and underscore" }
    }
    return label == 0 ? "an empty label" : nil
  }

  func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
    guard range.count == word.utf8CodeUnitCount else { return false }
    let start = word.utf8Start
    for offset in 0..<range.count where bytes[range.lowerBound + offset] != start[offset] { return false }
    return true
  }

  func hasPrefix(_ range: Range<Int>, _ word: StaticString) -> Bool {
    guard range.count >= word.utf8CodeUnitCount else { return false }
    let start = word.utf8Start
    for offset in 0..<word.utf8CodeUnitCount where bytes[range.lowerBound + offset] != start[offset] { return false }
    return true
  }

  func contains(_ range: Range<Int>, _ byte: UInt8) -> Bool {
    bytes[range].contains(byte)
  }

  func isDigits(_ range: Range<Int>) -> Bool {
    !range.isEmpty && bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }
}
