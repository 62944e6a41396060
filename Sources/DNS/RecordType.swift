/// The type of a resource record or question (RFC 1035 §3.2.2, AAAA from RFC 3596, OPT from RFC 6891).
///
/// Two values are equal when their numbers are: `.other(1)` equals `.a`. Use `init(rawValue:)` to get the
/// named case for a number.
public enum RecordType: Sendable, Hashable, CustomStringConvertible {
  /// An IPv4 address (1).
  case a
  /// An authoritative name server (2).
  case ns
  /// The canonical name of an alias (5).
  case cname
  /// The start of a zone of authority (6).
  case soa
  /// A domain name pointer, for reverse lookups (12).
  case ptr
  /// A mail exchange (15).
  case mx
  /// Text strings (16).
  case txt
  /// An IPv6 address (28).
  case aaaa
  /// The EDNS pseudo-record in the additional section (41).
  case opt
  /// Any other type, by number.
  case other(UInt16)

  /// The type for `rawValue`: a named case when there is one, else `.other`.
  public init(rawValue: UInt16) {
    switch rawValue {
    case 1: self = .a
    case 2: self = .ns
    case 5: self = .cname
    case 6: self = .soa
    case 12: self = .ptr
    case 15: self = .mx
    case 16: self = .txt
    case 28: self = .aaaa
    case 41: self = .opt
    default: self = .other(rawValue)
    }
  }

  /// The type's number on the wire.
  public var rawValue: UInt16 {
    switch self {
    case .a: 1
    case .ns: 2
    case .cname: 5
    case .soa: 6
    case .ptr: 12
    case .mx: 15
    case .txt: 16
    case .aaaa: 28
    case .opt: 41
    case .other(let value): value
    }
  }

  /// The mnemonic (`A`, `AAAA`), or `TYPE` and the number for others (RFC 3597).
  public var description: String {
    switch RecordType(rawValue: rawValue) {
    case .a: "A"
    case .ns: "NS"
    case .cname: "CNAME"
    case .soa: "SOA"
    case .ptr: "PTR"
    case .mx: "MX"
    case .txt: "TXT"
    case .aaaa: "AAAA"
    case .opt: "OPT"
    case .other(let value): "TYPE\(value)"
    }
  }

  /// Whether the two have the same number.
  public static func == (lhs: RecordType, rhs: RecordType) -> Bool { lhs.rawValue == rhs.rawValue }

  /// Hashes the number, as equality compares it.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
