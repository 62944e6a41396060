import BlockerTest
import Testing

@Suite("Sinkhole addresses")
struct SinkholesTests {
  @Test("Null and loopback addresses, and configured block pages, mean blocked; any routable address is reachable")
  func verdicts() {
    let sinkholes = Sinkholes(blockPages: ["192.0.2.99"])
    #expect(sinkholes.verdict(for: ["0.0.0.0", "::"]).outcome == .blocked)
    #expect(sinkholes.verdict(for: ["127.0.0.1"]).outcome == .blocked)
    #expect(sinkholes.verdict(for: ["192.0.2.99"]).outcome == .blocked)
    #expect(sinkholes.verdict(for: []).reason == "no address (NODATA)")
    let mixed = sinkholes.verdict(for: ["0.0.0.0", "198.51.100.4"])
    #expect(mixed.outcome == .reachable && mixed.reason == "198.51.100.4")
    #expect(Sinkholes().verdict(for: ["192.0.2.99"]).outcome == .reachable)
  }
}
