import DNS
import Testing

@Suite("IPv4 addresses")
struct IPv4AddressTests {
  @Test("Dotted quads parse and print back")
  func dottedQuad() {
    #expect(IPv4Address("192.0.2.7")?.bytes == [192, 0, 2, 7])
    #expect(IPv4Address("0.0.0.0") == .unspecified)
    #expect(IPv4Address("255.255.255.255")?.description == "255.255.255.255")
  }

  @Test(
    "Anything else is refused",
    arguments: ["", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.-4", "a.b.c.d", "1..2.3", " 1.2.3.4"])
  func malformed(text: String) {
    #expect(IPv4Address(text) == nil)
  }

  @Test("Bytes: exactly four")
  func bytes() {
    #expect(IPv4Address(bytes: [1, 2, 3]) == nil)
    #expect(IPv4Address(bytes: [10, 0, 0, 1])?.description == "10.0.0.1")
  }
}
