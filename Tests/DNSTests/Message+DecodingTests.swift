import DNS
import Testing

@Suite("Decoding hostile input")
struct MessageDecodingTests {
  @Test("A header shorter than 12 bytes is truncated at the missing field")
  func truncatedHeader() {
    #expect(throws: MessageError.truncated(offset: 0)) { try Message(decoding: []) }
    #expect(throws: MessageError.truncated(offset: 10)) {
      try Message(decoding: header(counts: [0, 0, 0, 0]).dropLast(1).map { $0 })
    }
  }

  @Test("Counts larger than the data are truncated, without reserving memory for them")
  func countsBeyondData() {
    #expect(throws: MessageError.truncated(offset: 12)) { try Message(decoding: header(counts: [1, 0, 0, 0])) }
    #expect(throws: MessageError.truncated(offset: 12)) {
      try Message(decoding: header(counts: [0, 65535, 65535, 65535]))
    }
    var bytes = header(counts: [1, 2, 0, 0]) + wire("a") + u16(1) + u16(1)
    bytes += wire("a") + fields(type: 1, data: [1, 2, 3, 4])
    #expect(throws: MessageError.truncated(offset: bytes.count)) { try Message(decoding: bytes) }
  }

  @Test("A record whose length runs past the end is truncated at its length field")
  func dataBeyondEnd() {
    let bytes = header(counts: [0, 1, 0, 0]) + wire("a") + u16(1) + u16(1) + u32(0) + u16(10) + [1, 2, 3, 4]
    #expect(throws: MessageError.truncated(offset: 12 + 3 + 8)) { try Message(decoding: bytes) }
  }

  @Test("A pointer to itself, two pointers to each other, a forward pointer and one past the end are refused")
  func badPointers() {
    let question = u16(1) + u16(1)
    // A name that is only a pointer to itself.
    #expect(throws: MessageError.badPointer(offset: 12)) {
      try Message(decoding: header(counts: [1, 0, 0, 0]) + [0xC0, 12] + question)
    }
    // Label "a" then a pointer back to the label: a loop through a backward pointer.
    #expect(throws: MessageError.badPointer(offset: 14)) {
      try Message(decoding: header(counts: [1, 0, 0, 0]) + [1, 0x61, 0xC0, 12] + question)
    }
    // Two names pointing at each other: the first points forward to the second.
    #expect(throws: MessageError.badPointer(offset: 12)) {
      try Message(decoding: header(counts: [2, 0, 0, 0]) + [0xC0, 18] + question + [0xC0, 12] + question)
    }
    // The second name points back to the first, which points forward to the second.
    #expect(throws: MessageError.badPointer(offset: 14)) {
      try Message(
        decoding: header(counts: [1, 1, 0, 0]) + [1, 0x61, 0xC0, 20] + question + [0xC0, 12]
          + fields(type: 1, data: [0, 0, 0, 0]))
    }
    #expect(throws: MessageError.badPointer(offset: 12)) {
      try Message(decoding: header(counts: [1, 0, 0, 0]) + [0xFF, 0xFF] + question)
    }
    // A pointer whose second byte is missing.
    #expect(throws: MessageError.truncated(offset: 12)) {
      try Message(decoding: header(counts: [1, 0, 0, 0]) + [0xC0])
    }
  }

  @Test("A chain of backward pointers is followed; each must point before the last")
  func pointerChain() throws {
    var proper = header(counts: [4, 0, 0, 0]) + wire("a") + u16(1) + u16(1)
    proper += [0xC0, 12] + u16(1) + u16(1)  // at 19
    proper += [1, 0x62, 0xC0, 12] + u16(1) + u16(1)  // "b.a" at 25
    proper += [1, 0x63, 0xC0, 25] + u16(1) + u16(1)  // "c.b.a" at 33
    let message = try Message(decoding: proper)
    #expect(message.questions.map(\.name) == ["a", "a", "b.a", "c.b.a"])
  }

  @Test("A label length of 64 (0x40) is refused: labels are at most 63 bytes")
  func labelTooLong() {
    let bytes = header(counts: [1, 0, 0, 0]) + [64] + [UInt8](repeating: 0x61, count: 64) + [0] + u16(1) + u16(1)
    #expect(throws: MessageError.labelTooLong(offset: 12)) { try Message(decoding: bytes) }
    #expect(throws: MessageError.labelTooLong(offset: 12)) {
      try Message(decoding: header(counts: [1, 0, 0, 0]) + [0x80, 0] + u16(1) + u16(1))
    }
  }

  @Test("A name over 255 bytes is refused, even one made long by pointers")
  func nameTooLong() throws {
    let label = [63] + [UInt8](repeating: 0x61, count: 63)
    // Four 63-byte labels: 4 × 64 + 1 = 257 bytes.
    let long = header(counts: [1, 0, 0, 0]) + label + label + label + label + [0] + u16(1) + u16(1)
    #expect(throws: MessageError.nameTooLong(offset: 12)) { try Message(decoding: long) }
    // Three labels and a 61-byte one: exactly 255 bytes, allowed.
    let fits =
      header(counts: [1, 0, 0, 0]) + label + label + label + [61] + [UInt8](repeating: 0x62, count: 61) + [0]
      + u16(1) + u16(1)
    #expect(try Message(decoding: fits).questions[0].name.utf8.count == 253)
    // A name of three 63-byte labels (193 bytes), then one more label pointing at it: 257 bytes.
    var pointed = header(counts: [2, 0, 0, 0]) + label + label + label + [0] + u16(1) + u16(1)
    pointed += label + [0xC0, 12] + u16(1) + u16(1)
    #expect(throws: MessageError.nameTooLong(offset: 209)) { try Message(decoding: pointed) }
  }

  @Test("Record data that does not fit its type or length is refused")
  func badRecordData() {
    let question = header(counts: [0, 1, 0, 0]) + wire("a")
    #expect(throws: MessageError.badRecordData(offset: 25, type: .a)) {
      try Message(decoding: question + fields(type: 1, data: [1, 2, 3]))
    }
    #expect(throws: MessageError.badRecordData(offset: 25, type: .aaaa)) {
      try Message(decoding: question + fields(type: 28, data: [1, 2, 3, 4]))
    }
    // A CNAME whose name runs past the data length into the next bytes.
    #expect(throws: MessageError.badRecordData(offset: 25, type: .cname)) {
      try Message(decoding: question + u16(5) + u16(1) + u32(0) + u16(2) + wire("xyz"))
    }
    // A TXT string longer than the data.
    #expect(throws: MessageError.badRecordData(offset: 25, type: .txt)) {
      try Message(decoding: question + fields(type: 16, data: [5, 0x61]))
    }
  }

  @Test("Names with dots, backslashes and unprintable bytes inside labels are escaped, so they stay distinct")
  func escapedNames() throws {
    let bytes = header(counts: [1, 0, 0, 0]) + [3, 0x61, 0x2E, 0x62] + [2, 0x5C, 0x00] + [0] + u16(1) + u16(1)
    let name = try Message(decoding: bytes).questions[0].name
    #expect(name == #"a\.b.\\\000"#)
    #expect(
      try Message(decoding: try Message(id: 1, questions: [Question(name: name, type: .a)]).encoded()).questions[0].name
        == name)
  }

  @Test("20,000 random buffers decode or throw, never crash or hang", .timeLimit(.minutes(5)))
  func randomBuffers() {
    var generator = SeededGenerator(seed: 0x5EED)
    var decoded = 0
    for _ in 0..<20_000 {
      let count = Int.random(in: 0..<200, using: &generator)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      // Small counts make it past the header more often.
      if bytes.count >= 12 {
        for index in [4, 6, 8, 10] { bytes[index] = 0 }
        for index in [5, 7, 9, 11] { bytes[index] = UInt8.random(in: 0...3, using: &generator) }
      }
      if (try? Message(decoding: bytes)) != nil { decoded += 1 }
    }
    #expect(decoded > 0)
  }

  @Test("20,000 mutations of a valid reply decode or throw, never crash or hang", .timeLimit(.minutes(5)))
  func mutations() {
    var generator = SeededGenerator(seed: 0xD15EA5E)
    var outcomes: [Bool: Int] = [:]
    for _ in 0..<20_000 {
      var bytes = compressedReply
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
      case 1:
        bytes.insert(
          UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
      default:
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
      }
      let decoded = (try? Message(decoding: bytes)) != nil
      outcomes[decoded, default: 0] += 1
    }
    #expect(outcomes[true, default: 0] > 0 && outcomes[false, default: 0] > 0)
  }
}
