import Foundation

/// An IPv6 address: sixteen bytes, written in the canonical form of RFC 5952 (`2001:db8::1`, `::`).
public struct IPv6Address: Sendable, Hashable, CustomStringConvertible {
  /// The address in network order, always sixteen bytes.
  public let bytes: [UInt8]

  /// The address of these sixteen bytes; nil for any other count.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 16 else { return nil }
    self.bytes = Array(bytes)
  }

  /// Parses IPv6 text in any RFC 4291 form: eight groups of 1–4 hex digits, at most one `::` standing for
  /// one or more zero groups, optionally ending in dotted-quad IPv4 (`::ffff:192.0.2.7`). No zone
  /// (`%eth0`) and no brackets. Nil for anything else.
  public init?(_ text: some StringProtocol) {
    let text = String(text)
    guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
    var head: [UInt16] = []
    var tail: [UInt16] = []
    var compressed = false
    let halves = text.components(separatedBy: "::")
    guard halves.count <= 2 else { return nil }
    compressed = halves.count == 2
    func groups(_ part: String, last: Bool) -> [UInt16]? {
      if part.isEmpty { return [] }
      let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
      var result: [UInt16] = []
      for (index, piece) in pieces.enumerated() {
        if last && index == pieces.count - 1 && piece.contains(".") {
          guard let v4 = IPv4Address(piece) else { return nil }
          result.append(UInt16(v4.bytes[0]) << 8 | UInt16(v4.bytes[1]))
          result.append(UInt16(v4.bytes[2]) << 8 | UInt16(v4.bytes[3]))
        } else {
          guard (1...4).contains(piece.utf8.count), piece.utf8.allSatisfy(\.isHexDigit),
            let value = UInt16(piece, radix: 16)
          else { return nil }
          result.append(value)
        }
      }
      return result
    }
    if compressed {
      guard let first = groups(halves[0], last: false), let second = groups(halves[1], last: true) else { return nil }
      head = first
      tail = second
      guard head.count + tail.count <= 7 else { return nil }
    } else {
      guard let all = groups(halves[0], last: true), all.count == 8 else { return nil }
      head = all
    }
    let words = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    bytes = words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  /// The unspecified address `::`, which blockers answer for a blocked name.
  public static let unspecified = IPv6Address(bytes: [UInt8](repeating: 0, count: 16))!

  /// The canonical text of RFC 5952: lower-case hex without leading zeros, the longest run of two or more
  /// zero groups (the first of equal runs) as `::`, and an IPv4-mapped address as `::ffff:192.0.2.7`.
  public var description: String {
    let words = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
    if words[0..<5].allSatisfy({ $0 == 0 }) && words[5] == 0xFFFF {
      return "::ffff:" + IPv4Address(bytes: bytes[12..<16])!.description
    }
    var bestStart = -1
    var bestLength = 0
    var index = 0
    while index < 8 {
      guard words[index] == 0 else {
        index += 1
        continue
      }
      let start = index
      while index < 8 && words[index] == 0 { index += 1 }
      if index - start > bestLength {
        bestStart = start
        bestLength = index - start
      }
    }
    let hex = words.map { String($0, radix: 16) }
    guard bestLength >= 2 else { return hex.joined(separator: ":") }
    let before = hex[..<bestStart].joined(separator: ":")
    let after = hex[(bestStart + bestLength)...].joined(separator: ":")
    return before + "::" + after
  }
}

extension UInt8 {
  /// Whether the byte is an ASCII hex digit.
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
