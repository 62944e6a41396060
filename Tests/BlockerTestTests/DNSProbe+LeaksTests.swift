import BlockerTest
import DNS
import Testing

@Suite("DNS probe: the CNAME chain of an answer")
struct DNSProbeLeaksTests {
  static func reply(_ records: [Record]) -> Message {
    Message(id: 1, flags: .init(), questions: [], answers: records, authority: [], additional: [])
  }

  @Test("The chain follows each alias from the name asked, in any order of the records, case ignored")
  func chain() {
    let reply = Self.reply([
      Record(name: "ads.example", data: .a(IPv4Address("192.0.2.1")!)),
      Record(name: "CDN.example", data: .cname("ads.example")),
      Record(name: "track.example", data: .cname("cdn.example")),
    ])
    #expect(DNSProbe.chain(of: "track.example", in: reply) == ["track.example", "cdn.example", "ads.example"])
    #expect(DNSProbe.chain(of: "other.example", in: reply) == ["other.example"])
  }

  @Test("A loop or an endless chain ends it: never more than eight names")
  func bounded() {
    let loop = Self.reply([
      Record(name: "a.example", data: .cname("b.example")), Record(name: "b.example", data: .cname("a.example")),
    ])
    #expect(DNSProbe.chain(of: "a.example", in: loop) == ["a.example", "b.example"])
    let long = Self.reply((0..<20).map { Record(name: "n\($0).example", data: .cname("n\($0 + 1).example")) })
    #expect(DNSProbe.chain(of: "n0.example", in: long).count == 8)
  }
}
