import DNS
import Testing

@Suite("Records")
struct RecordTests {
  @Test("The type comes from the data unless given; class IN and TTL 300 by default")
  func defaults() {
    let record = Record(name: "a.test", data: .aaaa(.unspecified))
    #expect(record.type == .aaaa && record.class == 1 && record.ttl == 300)
    #expect(Record(name: "a.test", type: .other(99), data: .raw([1])).type == .other(99))
  }
}
