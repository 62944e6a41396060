/// Domain names between their presentation text and their labels.
///
/// Text is the presentation form without the final dot (the root is `.`); a byte that is not printable
/// ASCII is written `\DDD`, and a dot or backslash inside a label `\.` or `\\` (RFC 1035 §5.1), so that
/// every sequence of labels has exactly one text.
enum Name {
  /// The text of these labels.
  static func text(_ labels: [ArraySlice<UInt8>]) -> String {
    guard !labels.isEmpty else { return "." }
    var text: [UInt8] = []
    for (index, label) in labels.enumerated() {
      if index > 0 { text.append(0x2E) }
      for byte in label {
        switch byte {
        case 0x2E, 0x5C:
          text += [0x5C, byte]
        case 0x21...0x7E:
          text.append(byte)
        default:
          text.append(0x5C)
          text += Array(String(format3: byte).utf8)
        }
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The labels of `text`; a final dot is allowed. Throws naming the problem for an empty name, an empty
  /// label, a label over 63 bytes, a name over 255 bytes on the wire, a character outside printable
  /// ASCII or a bad escape.
  static func labels(_ text: String) throws(MessageError) -> [[UInt8]] {
    func fail(_ problem: MessageError.NameProblem) -> MessageError { .invalidName(text, reason: problem) }
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { throw fail(.empty) }
    if bytes == [0x2E] { return [] }
    var labels: [[UInt8]] = []
    var label: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x5C:
        guard index + 1 < bytes.count else { throw fail(.badEscape) }
        let next = bytes[index + 1]
        if (0x30...0x39).contains(next) {
          guard index + 3 < bytes.count,
            bytes[(index + 1)...(index + 3)].allSatisfy({ (0x30...0x39).contains($0) })
          else { throw fail(.badEscape) }
          let value = bytes[(index + 1)...(index + 3)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
          guard value <= 255 else { throw fail(.badEscape) }
          label.append(UInt8(value))
          index += 4
        } else {
          guard (0x21...0x7E).contains(next) else { throw fail(.notASCII) }
          label.append(next)
          index += 2
        }
        continue
      case 0x2E:
        guard !label.isEmpty else { throw fail(.emptyLabel) }
        guard label.count <= 63 else { throw fail(.labelTooLong(String(decoding: label, as: UTF8.self))) }
        labels.append(label)
        label = []
      case 0x21...0x7E:
        label.append(byte)
      default:
        throw fail(.notASCII)
      }
      index += 1
    }
    guard label.count <= 63 else { throw fail(.labelTooLong(String(decoding: label, as: UTF8.self))) }
    if !label.isEmpty { labels.append(label) }
    let length = labels.reduce(1) { $0 + $1.count + 1 }
    guard length <= 255 else { throw fail(.tooLong(length)) }
    return labels
  }
}

extension String {
  /// A byte as three decimal digits, for `\DDD` escapes.
  fileprivate init(format3 byte: UInt8) {
    let digits = String(byte)
    self = String(repeating: "0", count: 3 - digits.count) + digits
  }
}
