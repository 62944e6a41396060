import Foundation

/// The one JSON form SaneHosts writes and reads: keys sorted, dates in ISO 8601, slashes unescaped.
///
/// Files (the ledger, backups' entries, test history, block set metadata, settings), the CLI's `--json`,
/// the dashboard's responses and its event stream all go through it, so a date or a key order reads the
/// same everywhere.
public enum JSONCoding {
  /// An encoder in that form, indented for people (`pretty`) or on one line.
  public static func encoder(pretty: Bool = false) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// A decoder for what `encoder` wrote.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  /// The value encoded.
  public static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
    try encoder(pretty: pretty).encode(value)
  }

  /// The value decoded from `data`.
  public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try decoder().decode(type, from: data)
  }

  /// The value as text and a newline, or `null` when it cannot be encoded (a value of ours always can).
  public static func text(_ value: some Encodable, pretty: Bool = false) -> String {
    String(decoding: (try? encode(value, pretty: pretty)) ?? Data("null".utf8), as: UTF8.self) + "\n"
  }

  /// A JSON object made of dictionaries, arrays, strings and numbers (an event whose fields vary), in the
  /// same form on one line, without a newline; `{}` when it is not one.
  public static func line(object: [String: Any]) -> String {
    guard JSONSerialization.isValidJSONObject(object) else { return "{}" }
    let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data ?? Data("{}".utf8), as: UTF8.self)
  }
}
