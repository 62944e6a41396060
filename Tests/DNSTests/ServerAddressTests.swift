import DNS
import Testing

@Suite("Server addresses")
struct ServerAddressTests {
  @Test(
    "IP, IP:port, IPv6, [IPv6] and [IPv6]:port; port 53 by default",
    arguments: [
      ("192.0.2.1", "192.0.2.1:53"), ("192.0.2.1:5353", "192.0.2.1:5353"), ("::1", "[::1]:53"), ("[::1]", "[::1]:53"),
      ("[2001:DB8::1]:853", "[2001:db8::1]:853"), (" 127.0.0.1:65535 ", "127.0.0.1:65535"),
      ("fe80::1:2", "[fe80::1:2]:53"),
    ])
  func valid(text: String, expected: String) throws {
    #expect(try ServerAddress(parsing: text).description == expected)
  }

  @Test(
    "Anything else is a named error",
    arguments: [
      "", "dns.example", "dns.example:53", "192.0.2.1:", "192.0.2.1:0", "192.0.2.1:65536", "192.0.2.1:x", "[::1]:",
      "[::1", "[::1]x", "::1]:53", "[192.0.2.1]:53", "192.0.2.1:+53", "fe80::1%eth0", "1.2.3.4:53:53", "[::1]:-1",
    ])
  func invalid(text: String) {
    #expect(throws: ResolverError.invalidServer(text)) { try ServerAddress(parsing: text) }
    #expect(throws: ResolverError.invalidServer(text)) { try Resolver(server: text) }
  }
}
