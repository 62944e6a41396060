import Foundation
import Testing

@testable import Traffic

@Suite("--log KIND:PATH")
struct LogKindTests {
  @Test("A kind and a path; a wrong kind or no path names the value and the kinds")
  func arguments() throws {
    #expect(
      try LogSource(argument: "dnsmasq:/var/log/dnsmasq.log") == LogSource(kind: .dnsmasq, path: "/var/log/dnsmasq.log")
    )
    #expect(try LogSource(argument: "BIND:q.log:1") == LogSource(kind: .bind, path: "q.log:1"))
    for bad in ["/var/log/dnsmasq.log", "pihole:/x", "unbound:"] {
      #expect(throws: TrafficError.badLogArgument(bad)) { try LogSource(argument: bad) }
    }
    let message = TrafficError.badLogArgument("pihole:/x").errorDescription ?? ""
    #expect(message.contains("pihole:/x") && message.contains("dnsmasq, unbound, bind"))
    #expect(QueryLogFormat.allCases.allSatisfy { !$0.setup.isEmpty })
    #expect(QueryLogFormat.unbound.parser() is UnboundLog)
  }
}
