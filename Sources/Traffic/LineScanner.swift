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
