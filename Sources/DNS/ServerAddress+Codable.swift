import Foundation

/// A server address is kept as it is written (`192.0.2.1:53`, `[2001:db8::1]:5353`), and read back by
/// `init(parsing:)`.
extension ServerAddress: Codable {
  /// Reads the address as written.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try ServerAddress(parsing: text)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "“\(text)” is not an IP address with an optional port")
    }
  }

  /// Writes the address as written.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
