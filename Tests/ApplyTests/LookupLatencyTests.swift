import Apply
import Testing

@Suite("Lookup latency")
struct LookupLatencyTests {
  @Test("localhost resolves and takes a positive, sub-second time; an invalid name gives nil")
  func measure() throws {
    let time = try #require(LookupLatency.measure("localhost", rounds: 3))
    #expect(time > .zero && time < .seconds(1))
    #expect(LookupLatency.measure("", rounds: 1) == nil)
  }
}
