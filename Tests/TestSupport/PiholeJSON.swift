import Foundation

/// A JSON value written by hand: objects keep their key order and may repeat a key, as Pi-hole's replies do.
enum PiholeJSON: Sendable {
  case object([(String, PiholeJSON)])
  case array([PiholeJSON])
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case null

  /// A string, or null when nil.
  static func nullable(_ value: String?) -> PiholeJSON { value.map { .string($0) } ?? .null }

  /// An array of integers.
  static func ints(_ values: [Int]) -> PiholeJSON { .array(values.map { .int($0) }) }

  /// The serialized bytes.
  var bytes: [UInt8] { Array(text.utf8) }

  /// The serialized text, compact.
  var text: String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .object(let pairs):
      out += "{"
      for (index, (key, value)) in pairs.enumerated() {
        if index > 0 { out += "," }
        Self.quote(key, into: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .string(let value): Self.quote(value, into: &out)
    case .int(let value): out += String(value)
    case .double(let value): out += value.isFinite ? String(value) : "0"
    case .bool(let value): out += value ? "true" : "false"
    case .null: out += "null"
    }
  }

  private static func quote(_ value: String, into out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let scalar where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
