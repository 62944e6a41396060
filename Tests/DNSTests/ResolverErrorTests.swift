import DNS
import Foundation
import Testing

@Suite("Resolver errors")
struct ResolverErrorTests {
  @Test("Messages name the server or value and say what to do")
  func messages() {
    let timeout = ResolverError.timeout(server: "127.0.0.1:53", after: .milliseconds(1500))
    #expect(timeout.localizedDescription == "The DNS server 127.0.0.1:53 did not answer within 1.5 s.")
    #expect(timeout.recoverySuggestion?.contains("firewall") == true)
    #expect(ResolverError.invalidServer("dns.example").localizedDescription.contains("“dns.example”"))
    #expect(ResolverError.invalidServer("x").recoverySuggestion?.contains("[::1]:5353") == true)
    #expect(
      ResolverError.unreachable(server: "[::1]:53", detail: "connection refused").localizedDescription.contains(
        "[::1]:53"))
    #expect(
      ResolverError.malformedReply(.truncated(offset: 2)).localizedDescription.contains("byte 2"))
    #expect(ResolverError.invalidName("a..b", reason: .emptyLabel).localizedDescription.contains("“a..b”"))
  }
}
