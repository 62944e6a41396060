#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an address in a list line does to the names after it.
public enum Address: Equatable, Sendable {
  /// 0.0.0.0 or `::`: the name goes nowhere. A block.
  case null
  /// 127.0.0.0/8 or `::1`: the name points at this machine. Also a block.
  case loopback
  /// Any other address: the line would send the name somewhere real. Never taken from a list.
  case routable
  /// The token is not an address.
  case none

  /// Whether the address blocks the names it is given to.
  public var blocks: Bool { self == .null || self == .loopback }

  /// Classifies a token as an IPv4 or IPv6 address.
  public static func classify(_ token: UnsafeBufferPointer<UInt8>) -> Address {
    guard let first = token.first else { return .none }
    if first == UInt8(ascii: ":") || token.contains(UInt8(ascii: ":")) { return classifyIPv6(token) }
    guard first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else { return .none }
    var octets = 0
    var firstOctet = 0
    var allZero = true
    var value = -1
    for byte in token {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = (value < 0 ? 0 : value) * 10 + Int(byte - UInt8(ascii: "0"))
        if value > 255 { return .none }
      case UInt8(ascii: "."):
        if value < 0 || octets == 3 { return .none }
        if octets == 0 { firstOctet = value }
        if value != 0 { allZero = false }
        octets += 1
        value = -1
      default:
        return .none
      }
    }
    // `0` alone is 0.0.0.0, as inet_aton(3) reads it (Pi-hole, StevenBlack and hBlock lists use it).
    if octets == 0 && value == 0 && token.count == 1 { return .null }
    guard value >= 0, octets == 3 else { return .none }
    if value != 0 { allZero = false }
    if allZero { return .null }
    if firstOctet == 127 { return .loopback }
    return .routable
  }

  /// Classifies a text token; see `classify(_:)` for bytes.
  public static func classify(_ text: String) -> Address {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { classify(UnsafeBufferPointer($0)) }
  }

  private static func classifyIPv6(_ token: UnsafeBufferPointer<UInt8>) -> Address {
    guard token.count < 64 else { return .none }
    var text = Array(token)
    // A zone index (`fe80::1%eth0`) is not part of the address.
    if let percent = text.firstIndex(of: UInt8(ascii: "%")) { text.removeSubrange(percent...) }
    text.append(0)
    var address = in6_addr()
    let parsed = text.withUnsafeBufferPointer {
      inet_pton(AF_INET6, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &address)
    }
    guard parsed == 1 else { return .none }
    let bytes = withUnsafeBytes(of: address) { Array($0) }
    if bytes.allSatisfy({ $0 == 0 }) { return .null }
    if bytes.dropLast().allSatisfy({ $0 == 0 }) && bytes.last == 1 { return .loopback }
    // IPv4-mapped null and loopback addresses (::ffff:0.0.0.0, ::ffff:127.0.0.1).
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
      if bytes[12..<16].allSatisfy({ $0 == 0 }) { return .null }
      if bytes[12] == 127 { return .loopback }
    }
    return .routable
  }
}
