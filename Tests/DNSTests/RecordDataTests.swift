import DNS
import Testing

@Suite("Record data")
struct RecordDataTests {
  @Test("Each case knows its type; only A and AAAA have an address")
  func types() {
    #expect(RecordData.a(.unspecified).type == .a)
    #expect(RecordData.cname("x").type == .cname)
    #expect(RecordData.txt([]).type == .txt)
    #expect(RecordData.raw([]).type == nil)
    #expect(RecordData.a(IPv4Address("192.0.2.7")!).address?.description == "192.0.2.7")
    #expect(RecordData.aaaa(.unspecified).address == .v6(.unspecified))
    #expect(RecordData.cname("x").address == nil)
  }
}
