/// An IPv4 or IPv6 address.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
  /// An IPv4 address.
  case v4(IPv4Address)
  /// An IPv6 address.
  case v6(IPv6Address)

  /// Parses IPv4 dotted-quad or IPv6 text (no brackets, no zone); nil for anything else.
  public init?(_ text: some StringProtocol) {
    if let v4 = IPv4Address(text) {
      self = .v4(v4)
    } else if let v6 = IPv6Address(text) {
      self = .v6(v6)
    } else {
      return nil
    }
  }

  /// The address's bytes in network order: four or sixteen.
  public var bytes: [UInt8] {
    switch self {
    case .v4(let address): address.bytes
    case .v6(let address): address.bytes
    }
  }

  /// Whether it is the unspecified address (`0.0.0.0` or `::`), the answer blockers give.
  public var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

  /// The address's text: dotted quad, or canonical IPv6.
  public var description: String {
    switch self {
    case .v4(let address): address.description
    case .v6(let address): address.description
    }
  }
}
