import DNS
import Testing

@Suite("IP addresses")
struct IPAddressTests {
  @Test("Either family parses; the unspecified addresses are recognised")
  func families() {
    #expect(IPAddress("192.0.2.7") == .v4(IPv4Address("192.0.2.7")!))
    #expect(IPAddress("::1") == .v6(IPv6Address("::1")!))
    #expect(IPAddress("host.test") == nil)
    #expect(IPAddress("0.0.0.0")?.isUnspecified == true)
    #expect(IPAddress("::")?.isUnspecified == true)
    #expect(IPAddress("::1")?.isUnspecified == false)
    #expect(IPAddress("2001:db8::1")?.bytes.count == 16)
  }
}
