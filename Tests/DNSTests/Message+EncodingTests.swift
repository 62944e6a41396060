import DNS
import Testing

@Suite("Encoding queries and names")
struct MessageEncodingTests {
  @Test("A final dot is fine; the wire format is the same with or without it")
  func trailingDot() throws {
    #expect(try Message.query(id: 1, name: "a.test.", type: .a) == Message.query(id: 1, name: "a.test", type: .a))
    #expect(
      try Message.query(id: 1, name: "a.test", type: .a)[12..<20] == [1, 0x61, 4, 0x74, 0x65, 0x73, 0x74, 0][...])
  }

  @Test("Labels of 63 bytes are fine, 64 are refused naming the label")
  func labelLimit() throws {
    let ok = String(repeating: "a", count: 63)
    _ = try Message.query(id: 1, name: "\(ok).test", type: .a)
    let long = String(repeating: "b", count: 64)
    #expect(throws: MessageError.invalidName("\(long).test", reason: .labelTooLong(long))) {
      try Message.query(id: 1, name: "\(long).test", type: .a)
    }
    #expect(throws: MessageError.invalidName("x.\(long)", reason: .labelTooLong(long))) {
      try Message.query(id: 1, name: "x.\(long)", type: .a)
    }
  }

  @Test("Names up to 255 bytes on the wire are fine, longer ones refused with their length")
  func nameLimit() throws {
    let label = String(repeating: "a", count: 63)
    let fits = [label, label, label, String(repeating: "b", count: 61)].joined(separator: ".")
    #expect(fits.utf8.count == 253)
    _ = try Message.query(id: 1, name: fits, type: .a)
    _ = try Message.query(id: 1, name: fits + ".", type: .a)
    #expect(throws: MessageError.invalidName(fits + "b", reason: .tooLong(256))) {
      try Message.query(id: 1, name: fits + "b", type: .a)
    }
  }

  @Test("Empty names and labels, non-ASCII and bad escapes are refused")
  func invalidNames() {
    let cases: [(String, MessageError.NameProblem)] = [
      ("", .empty), ("a..b", .emptyLabel), (".a", .emptyLabel), ("a.b..", .emptyLabel), ("bücher.de", .notASCII),
      ("a b", .notASCII), ("tab\t", .notASCII), (#"a\"#, .badEscape), (#"a\25"#, .badEscape), (#"a\256"#, .badEscape),
    ]
    for (name, problem) in cases {
      #expect(throws: MessageError.invalidName(name, reason: problem), "\(name)") {
        try Message.query(id: 1, name: name, type: .a)
      }
    }
  }

  @Test("Punycode, underscores, the root and escapes are fine")
  func validNames() throws {
    for name in ["xn--bcher-kva.de", "_dmarc.example", ".", #"a\.b"#, #"\000x"#, "*.wild.test"] {
      let question = try Message(decoding: try Message.query(id: 1, name: name, type: .txt)).questions[0]
      #expect(question.name == name)
    }
  }

  @Test("Record data over 65,535 bytes is refused")
  func recordTooLong() {
    let message = Message(
      id: 1, answers: [Record(name: "big.test", type: .other(99), data: .raw(.init(repeating: 0, count: 70_000)))])
    #expect(throws: MessageError.recordTooLong(name: "big.test", length: 70_000)) { try message.encoded() }
  }
}
