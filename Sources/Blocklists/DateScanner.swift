/// A cursor over the bytes of a header's date, for `ListDate`: each step consumes what it matches and
/// leaves the cursor where it was when it does not.
struct DateScanner {
  let bytes: [UInt8]
  var index: Int

  init(bytes: [UInt8], at index: Int) {
    self.bytes = bytes
    self.index = index
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

  /// Whether the cursor is at the end or before a byte that cannot continue a word (`\b` after a digit,
  /// as Unicode reads it: a point or comma between digits, as in 1225.345, does not end the number).
  var atWordEnd: Bool {
    guard index < bytes.count else { return true }
    let byte = bytes[index]
    if byte == 0x2E || byte == 0x2C, index + 1 < bytes.count, Self.isDigit(bytes[index + 1]) { return false }
    return !(Self.isDigit(byte) || Self.isLetter(byte) || byte == 0x5F || byte >= 0x80)
  }

  /// The number made of the digits that follow, at most `count.upperBound` of them (as `\d{m,n}` takes
  /// them), when there are at least `count.lowerBound`.
  mutating func digits(_ count: ClosedRange<Int>) -> Int? {
    var end = index
    while end < bytes.count, end - index < count.upperBound, Self.isDigit(bytes[end]) { end += 1 }
    guard count.contains(end - index) else { return nil }
    let value = bytes[index..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    index = end
    return value
  }

  /// Consumes `character` (one ASCII byte) when it is next.
  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  /// Consumes one or more spaces or tabs.
  mutating func spaces() -> Bool {
    let start = index
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    return index > start
  }

  /// A word of ASCII letters (and ä or Ä, written in UTF-8, when `umlauts`) whose letter count is in `count`.
  mutating func letters(_ count: ClosedRange<Int>, umlauts: Bool = true) -> String? {
    var end = index
    var letters = 0
    while end < bytes.count {
      if Self.isLetter(bytes[end]) {
        end += 1
      } else if umlauts, end + 1 < bytes.count, bytes[end] == 0xC3, bytes[end + 1] == 0xA4 || bytes[end + 1] == 0x84 {
        end += 2
      } else {
        break
      }
      letters += 1
    }
    guard count.contains(letters) else { return nil }
    defer { index = end }
    return String(decoding: bytes[index..<end], as: UTF8.self)
  }

  /// Two to four capital letters (a time zone's abbreviation).
  mutating func capitals(_ count: ClosedRange<Int>) -> Bool {
    var end = index
    while end < bytes.count, bytes[end] >= 0x41, bytes[end] <= 0x5A { end += 1 }
    guard count.contains(end - index) else { return false }
    index = end
    return true
  }

  /// H:MM or HH:MM, with :SS if given.
  mutating func clock() -> (Int, Int, Int)? {
    var scan = self
    guard let hour = scan.digits(1...2), scan.skip(":"), let minute = scan.digits(2...2) else { return nil }
    var second = 0
    var seconds = scan
    if seconds.skip(":"), let value = seconds.digits(2...2) {
      second = value
      scan = seconds
    }
    self = scan
    return (hour, minute, second)
  }
}
