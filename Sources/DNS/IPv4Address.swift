/// An IPv4 address: four bytes, written `192.0.2.7`.
public struct IPv4Address: Sendable, Hashable, CustomStringConvertible {
  /// The address in network order, always four bytes.
  public let bytes: [UInt8]

  /// The address of these four bytes; nil for any other count.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 4 else { return nil }
    self.bytes = Array(bytes)
  }

  /// Parses dotted-quad text (`192.0.2.7`): exactly four decimal numbers 0–255, no leading zeros, nothing
  /// else. Nil for anything else.
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        part.utf8.count == 1 || part.utf8.first != 0x30, let value = UInt8(part)
      else { return nil }
      bytes.append(value)
    }
    self.bytes = bytes
  }

  /// The unspecified address `0.0.0.0`, which blockers answer for a blocked name.
  public static let unspecified = IPv4Address(bytes: [0, 0, 0, 0])!

  /// Dotted-quad text.
  public var description: String { bytes.map(String.init).joined(separator: ".") }
}
