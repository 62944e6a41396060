import DNS
import Testing

@Suite("IPv6 addresses")
struct IPv6AddressTests {
  @Test(
    "Text is the canonical RFC 5952 form",
    arguments: [
      ("::", "::"), ("0:0:0:0:0:0:0:1", "::1"), ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
      ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),  // the first of two equal runs
      ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),  // one zero group stays
      ("2001:0db8:0000:0000:0001:0000:0000:0000", "2001:db8:0:0:1::"),  // the longer run
      ("fe80::", "fe80::"), ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"), ("::ffff:192.0.2.7", "::ffff:192.0.2.7"),
      ("::ffff:c000:0207", "::ffff:192.0.2.7"), ("64:ff9b::192.0.2.7", "64:ff9b::c000:207"), ("0:0:1::", "0:0:1::"),
    ])
  func canonical(text: String, expected: String) throws {
    let address = try #require(IPv6Address(text))
    #expect(address.description == expected)
    #expect(IPv6Address(expected) == address)
  }

  @Test(
    "Malformed text is refused",
    arguments: [
      "", ":", ":::", "1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "12345::", "g::", "::1%eth0", "[::1]",
      "1:2:3:4:5:6:7::8:9", "::192.0.2", "::1.2.3.4:5", "1:2:3:4:5:6:7:8::", " ::1",
    ])
  func malformed(text: String) {
    #expect(IPv6Address(text) == nil)
  }

  @Test("Bytes: exactly sixteen")
  func bytes() {
    #expect(IPv6Address(bytes: [UInt8](repeating: 0, count: 15)) == nil)
    #expect(
      IPv6Address(bytes: [0x20, 1, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1])?.description == "2001:db8::1")
    #expect(IPv6Address.unspecified.description == "::")
  }
}
