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
      Record(name: "ads.website", data: .a(IPv4Address("192.0.2.1")!)),
      Record(name: "CDN.website", data: .cname("ads.website")),
      Record(name: "track.website", data: .cname("cdn.website")),
    ])
    #expect(DNSProbe.chain(of: "track.website", in: reply) == ["track.website", "cdn.website", "ads.website"])
    #expect(DNSProbe.chain(of: "other.website", in: reply) == ["other.website"])
  }

  @Test("A loop or an endless chain ends it: never more than eight names")
  func bounded() {
    let loop = Self.reply([
      Record(name: "a.website", data: .cname("b.website")), Record(name: "b.website", data: .cname("a.website")),
    ])
    #expect(DNSProbe.chain(of: "a.website", in: loop) == ["a.website", "b.website"])
    let long = Self.reply((0..<20).map { Record(name: "n\($0).website", data: .cname("n\($0 + 1).website")) })
    #expect(DNSProbe.chain(of: "n0.website", in: long).count == 8)
  }
}
