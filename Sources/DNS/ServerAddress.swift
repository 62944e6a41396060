/// A DNS server's IP address and port.
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
  /// The server's address.
  public var ip: IPAddress
  /// The server's port.
  public var port: UInt16

  /// The standard DNS port.
  public static let defaultPort: UInt16 = 53

  /// Creates an address.
  public init(ip: IPAddress, port: UInt16 = ServerAddress.defaultPort) {
    self.ip = ip
    self.port = port
  }

  /// Parses `IPv4`, `IPv4:port`, `IPv6`, `[IPv6]` or `[IPv6]:port` (surrounding spaces ignored); the port
  /// defaults to 53 and must be 1–65535. Throws `.invalidServer` naming the text for anything else (a
  /// host name, a zone, an empty port).
  public init(parsing text: String) throws(ResolverError) {
    let trimmed = text.trimmingSpaces
    var host = Substring(trimmed)
    var portText: Substring?
    if trimmed.hasPrefix("[") {
      guard let close = trimmed.firstIndex(of: "]") else { throw .invalidServer(text) }
      host = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
      let rest = trimmed[trimmed.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { throw .invalidServer(text) }
        portText = rest.dropFirst()
      }
      guard let v6 = IPv6Address(host) else { throw .invalidServer(text) }
      ip = .v6(v6)
    } else if trimmed.filter({ $0 == ":" }).count == 1 {
      let colon = trimmed.firstIndex(of: ":")!
      host = trimmed[..<colon]
      portText = trimmed[trimmed.index(after: colon)...]
      guard let v4 = IPv4Address(host) else { throw .invalidServer(text) }
      ip = .v4(v4)
    } else {
      guard let address = IPAddress(host) else { throw .invalidServer(text) }
      ip = address
    }
    port = Self.defaultPort
    if let portText {
      guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCIIDigit), let number = UInt16(portText),
        number > 0
      else { throw .invalidServer(text) }
      port = number
    }
  }

  /// `IP:port`, IPv6 in brackets (`[::1]:53`).
  public var description: String {
    switch ip {
    case .v4(let address): "\(address):\(port)"
    case .v6(let address): "[\(address)]:\(port)"
    }
  }
}

extension Character {
  /// Whether it is one of 0–9.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
  /// The text without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
  }
}
