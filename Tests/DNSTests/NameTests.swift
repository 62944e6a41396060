import DNS
import Testing

/// `Name` is internal: it is tested through the codec, which shows its text form.
@Suite("Names")
struct NameTests {
  @Test("The root is '.', and text round-trips through the wire format, escapes included")
  func roundTrip() throws {
    for name in [".", "a", "a.b.c", #"a\.b"#, #"a\\b"#, #"\255\000"#, "x-y_z.test"] {
      let decoded = try Message(decoding: try Message.query(id: 0, name: name, type: .a)).questions[0].name
      #expect(decoded == name)
    }
    // Escaped printable characters come back unescaped.
    #expect(try Message(decoding: try Message.query(id: 0, name: #"\097b"#, type: .a)).questions[0].name == "ab")
  }
}
