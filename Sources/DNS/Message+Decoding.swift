extension Message {
  /// Decodes a message from its wire format.
  ///
  /// Safe on hostile input: every read is bounds-checked, a compression pointer must point strictly
  /// before every earlier part of its name (so pointers cannot loop) and at most 127 are followed per
  /// name, labels over 63 and names over 255 bytes are refused, and a count larger than the data is
  /// `.truncated`. Bytes after the last record are ignored (some servers pad).
  public init(decoding bytes: [UInt8]) throws(MessageError) {
    var reader = Reader(bytes: bytes)
    id = try reader.u16()
    flags = Flags(wire: try reader.u16())
    let counts = (try reader.u16(), try reader.u16(), try reader.u16(), try reader.u16())
    questions = []
    for _ in 0..<counts.0 {
      let name = try reader.name()
      questions.append(Question(name: name, type: RecordType(rawValue: try reader.u16()), class: try reader.u16()))
    }
    answers = try reader.records(counts.1)
    authority = try reader.records(counts.2)
    additional = try reader.records(counts.3)
  }
}

/// Bounds-checked reads from a message's bytes.
private struct Reader {
  let bytes: [UInt8]
  var offset = 0

  mutating func u8() throws(MessageError) -> UInt8 {
    guard offset < bytes.count else { throw .truncated(offset: offset) }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func u16() throws(MessageError) -> UInt16 {
    guard bytes.count - offset >= 2 else { throw .truncated(offset: offset) }
    defer { offset += 2 }
    return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
  }

  mutating func u32() throws(MessageError) -> UInt32 {
    guard bytes.count - offset >= 4 else { throw .truncated(offset: offset) }
    defer { offset += 4 }
    return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// A name at the current offset, following compression pointers; leaves the offset after the name's
  /// last byte at its original place (after the first pointer, if any).
  mutating func name() throws(MessageError) -> String {
    let start = offset
    var position = offset
    // Every pointer must point strictly before this limit, which then becomes its target: the targets
    // strictly decrease, so no name can loop.
    var limit = offset
    var jumped = false
    var hops = 0
    var length = 1
    var labels: [ArraySlice<UInt8>] = []
    while true {
      guard position < bytes.count else { throw .truncated(offset: position) }
      let byte = bytes[position]
      switch byte >> 6 {
      case 0b00:
        if byte == 0 {
          if !jumped { offset = position + 1 }
          return Name.text(labels)
        }
        let count = Int(byte)
        guard bytes.count - position - 1 >= count else { throw .truncated(offset: position) }
        length += count + 1
        guard length <= 255 else { throw .nameTooLong(offset: start) }
        labels.append(bytes[(position + 1)..<(position + 1 + count)])
        position += 1 + count
      case 0b11:
        guard position + 1 < bytes.count else { throw .truncated(offset: position) }
        let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
        hops += 1
        guard target < limit, hops <= 127 else { throw .badPointer(offset: position) }
        if !jumped {
          offset = position + 2
          jumped = true
        }
        limit = target
        position = target
      default:
        throw .labelTooLong(offset: position)
      }
    }
  }

  mutating func records(_ count: UInt16) throws(MessageError) -> [Record] {
    var records: [Record] = []
    // Each record is at least 11 bytes: never reserve more than the data can hold.
    records.reserveCapacity(min(Int(count), (bytes.count - offset) / 11))
    for _ in 0..<count { records.append(try record()) }
    return records
  }

  mutating func record() throws(MessageError) -> Record {
    let name = try name()
    let type = RecordType(rawValue: try u16())
    let `class` = try u16()
    let ttl = try u32()
    let lengthOffset = offset
    let length = Int(try u16())
    guard bytes.count - offset >= length else { throw .truncated(offset: lengthOffset) }
    let start = offset
    let end = start + length
    let data = try recordData(type, end: end)
    guard offset == end else { throw .badRecordData(offset: start, type: type) }
    return Record(name: name, type: type, class: `class`, ttl: ttl, data: data)
  }

  /// The data of a record of `type` from the offset to `end`; a name or string running past `end` is
  /// caught by the caller, which checks that the data ended exactly at `end`.
  mutating func recordData(_ type: RecordType, end: Int) throws(MessageError) -> RecordData {
    let start = offset
    func fixed(_ count: Int) throws(MessageError) -> ArraySlice<UInt8> {
      guard end - start == count else { throw .badRecordData(offset: start, type: type) }
      offset = end
      return bytes[start..<end]
    }
    switch type {
    case .a:
      return .a(IPv4Address(bytes: try fixed(4))!)
    case .aaaa:
      return .aaaa(IPv6Address(bytes: try fixed(16))!)
    case .cname:
      return .cname(try name())
    case .ns:
      return .ns(try name())
    case .ptr:
      return .ptr(try name())
    case .mx:
      return .mx(preference: try u16(), exchange: try name())
    case .soa:
      return .soa(
        RecordData.SOA(
          primary: try name(), mailbox: try name(), serial: try u32(), refresh: try u32(), retry: try u32(),
          expire: try u32(), minimum: try u32()))
    case .txt:
      var strings: [[UInt8]] = []
      while offset < end {
        let count = Int(try u8())
        guard end - offset >= count else { throw .badRecordData(offset: start, type: type) }
        strings.append(Array(bytes[offset..<offset + count]))
        offset += count
      }
      return .txt(strings)
    default:
      offset = end
      return .raw(Array(bytes[start..<end]))
    }
  }
}
