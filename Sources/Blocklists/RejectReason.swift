/// Why a line or token of a list was not taken as a name to block.
public enum RejectReason: String, Error, Sendable, Hashable, CaseIterable, Codable, Comparable {
  /// A character outside `a-z 0-9 - _ .` (after lower-casing), such as `/`, `:`, `@` or a space.
  case invalidCharacter
  /// An empty label: `a..b`, a leading dot, or two trailing dots.
  case emptyLabel
  /// A label longer than 63 characters.
  case labelTooLong
  /// A name longer than 253 characters.
  case nameTooLong
  /// A label that starts or ends with `-`.
  case hyphenAtLabelEdge
  /// The top label is not a possible TLD (digits only, or an underscore).
  case invalidTopLabel
  /// An IP address where a name belongs.
  case ipAddress
  /// A single label such as `com` or `lan`: blocking it would block a whole TLD.
  case bareTopLevelDomain
  /// `localhost`, `broadcasthost`, `ip6-localhost` and the like: the machine's own names.
  case localName
  /// An address glued to a name by a broken conversion, such as `0.0.0.0ads.example`.
  case gluedAddress
  /// A Unicode name that does not convert to a valid punycode name.
  case invalidInternationalName
  /// A hosts, dnsmasq, unbound or RPZ line that sends names to a real address: lists may only block.
  case nonBlockingAddress
  /// A valid rule that is not a DNS block: adblock cosmetic, path, option or exception rules, other
  /// dnsmasq directives, unbound zone types that do not block.
  case unsupportedRule
  /// A line in another format than the one forced for the source.
  case wrongFormat
  /// A line that fits no known format.
  case malformedLine
  /// A line longer than the parser's limit (64 KiB): skipped without being held in memory.
  case lineTooLong
  /// NUL bytes, control characters or invalid UTF-8: the data is not text.
  case binaryData
  /// A name of the local network, never blocked: `localhost` and `*.localhost` (RFC 6761 §6.3), `*.local`
  /// (multicast DNS, RFC 6762), `*.home.arpa` (RFC 8375), `*.internal` (reserved for private use), and
  /// the top-level names home networks use (`.lan`, `.home`, `.corp`, `.localdomain`…): blocking them from
  /// a list would break printers, routers and NAS boxes.
  case localNetworkName
  /// A name reserved for testing, documentation or other special use, never blocked: `*.test`,
  /// `*.example`, `*.invalid` (RFC 6761 §6.2, §6.5, §6.4) and `*.onion` (RFC 7686).
  case reservedName
  /// A name under a top-level domain that is not in the Public Suffix List (`46186911.vtt`,
  /// `tracker.comm`): no public name lives there, so it is a local network's name, a file name or a
  /// typo; never blocked.
  case unknownTopLevelDomain

  /// A short description for people.
  public var summary: String {
    switch self {
    case .invalidCharacter: "invalid character"
    case .emptyLabel: "empty label"
    case .labelTooLong: "label over 63 characters"
    case .nameTooLong: "name over 253 characters"
    case .hyphenAtLabelEdge: "label starts or ends with a hyphen"
    case .invalidTopLabel: "invalid top-level label"
    case .ipAddress: "IP address instead of a name"
    case .bareTopLevelDomain: "bare top-level domain"
    case .localName: "local machine name"
    case .gluedAddress: "address glued to a name"
    case .invalidInternationalName: "invalid international name"
    case .nonBlockingAddress: "redirects to a real address"
    case .unsupportedRule: "rule that is not a DNS block"
    case .wrongFormat: "line in another format"
    case .malformedLine: "malformed line"
    case .lineTooLong: "line over 64 KiB"
    case .binaryData: "binary data"
    case .localNetworkName: "local network name, never blocked"
    case .reservedName: "special-use name (RFC 6761), never blocked"
    case .unknownTopLevelDomain: "no such top-level domain (a local network name or a typo), never blocked"
    }
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
