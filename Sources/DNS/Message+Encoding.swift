extension Message {
  /// The wire format of a standard query for `name`'s `type` records (class IN), one question, no EDNS.
  ///
  /// `name` must be a valid domain name: labels of 1–63 printable ASCII bytes (an internationalized name
  /// already in punycode), at most 255 bytes on the wire; a final dot is fine.
  public static func query(
    id: UInt16, name: String, type: RecordType, recursionDesired: Bool = true
  ) throws(MessageError) -> [UInt8] {
    try Message(
      id: id, flags: Flags(recursionDesired: recursionDesired), questions: [Question(name: name, type: type)]
    ).encoded()
  }

  /// The message's wire format, names written in full (no compression). Throws for a name that is not a
  /// valid domain name or record data over 65,535 bytes.
  public func encoded() throws(MessageError) -> [UInt8] {
    var writer = Writer()
    writer.u16(id)
    writer.u16(flags.wire)
    for section in [questions.count, answers.count, authority.count, additional.count] {
      writer.u16(UInt16(clamping: section))
    }
    for question in questions.prefix(65535) {
      try writer.name(question.name)
      writer.u16(question.type.rawValue)
      writer.u16(question.class)
    }
    for record in [answers, authority, additional].flatMap({ $0.prefix(65535) }) {
      try writer.record(record)
    }
    return writer.bytes
  }
}

/// Appends wire-format fields.
private struct Writer {
  var bytes: [UInt8] = []

  mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }

  mutating func u32(_ value: UInt32) { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

  mutating func name(_ text: String) throws(MessageError) {
    for label in try Name.labels(text) {
      bytes.append(UInt8(label.count))
      bytes += label
    }
    bytes.append(0)
  }

  mutating func record(_ record: Record) throws(MessageError) {
    try name(record.name)
    u16(record.type.rawValue)
    u16(record.class)
    u32(record.ttl)
    let lengthAt = bytes.count
    u16(0)
    switch record.data {
    case .a(let address): bytes += address.bytes
    case .aaaa(let address): bytes += address.bytes
    case .cname(let target), .ns(let target), .ptr(let target): try name(target)
    case .mx(let preference, let exchange):
      u16(preference)
      try name(exchange)
    case .soa(let soa):
      try name(soa.primary)
      try name(soa.mailbox)
      for value in [soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum] { u32(value) }
    case .txt(let strings):
      for string in strings {
        bytes.append(UInt8(clamping: string.count))
        bytes += string.prefix(255)
      }
    case .raw(let data): bytes += data
    }
    let length = bytes.count - lengthAt - 2
    guard length <= 65535 else { throw .recordTooLong(name: record.name, length: length) }
    bytes[lengthAt] = UInt8(length >> 8)
    bytes[lengthAt + 1] = UInt8(length & 0xFF)
  }
}
