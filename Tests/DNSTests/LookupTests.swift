import DNS
import Testing

@Suite("Lookup results")
struct LookupTests {
  @Test("Addresses: IPv4 first, a failed query contributes none")
  func addresses() {
    let a = Message(id: 1, answers: [Record(name: "x", data: .a(IPv4Address("192.0.2.1")!))])
    let aaaa = Message(id: 2, answers: [Record(name: "x", data: .aaaa(IPv6Address("2001:db8::1")!))])
    let both = Lookup(name: "x", a: .success(a), aaaa: .success(aaaa))
    #expect(both.addresses.map(\.description) == ["192.0.2.1", "2001:db8::1"])
    let one = Lookup(name: "x", a: .success(a), aaaa: .failure(.cancelled))
    #expect(one.addresses.map(\.description) == ["192.0.2.1"])
  }
}
