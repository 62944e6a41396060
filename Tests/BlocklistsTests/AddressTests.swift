import Blocklists
import Testing

@Suite("Addresses in list lines")
struct AddressTests {
  @Test(
    "Null and loopback addresses block; others would redirect",
    arguments: [
      ("0.0.0.0", Address.null), ("::", .null), ("0:0:0:0:0:0:0:0", .null), ("::ffff:0.0.0.0", .null),
      ("127.0.0.1", .loopback), ("127.1.2.3", .loopback), ("::1", .loopback),
      ("1.2.3.4", .routable), ("192.168.1.1", .routable), ("2001:db8::1", .routable), ("fe80::1%eth0", .routable),
      ("256.0.0.1", .none), ("1.2.3", .none), ("example.com", .none), ("0", .null), ("00", .none), ("1.2.3.4.5", .none),
    ])
  func classify(text: String, expected: Address) {
    #expect(Address.classify(text) == expected)
    #expect(Address.classify(text).blocks == (expected == .null || expected == .loopback))
  }
}
