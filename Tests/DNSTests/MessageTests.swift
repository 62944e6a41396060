import DNS
import Testing

@Suite("Message")
struct MessageTests {
  @Test("A query round-trips: id, RD, one IN question, no records")
  func queryRoundTrip() throws {
    let bytes = try Message.query(id: 0xBEEF, name: "Ads.Example.com.", type: .aaaa)
    #expect(bytes.count == 12 + 17 + 4)
    let message = try Message(decoding: bytes)
    #expect(message.id == 0xBEEF)
    #expect(message.flags == Message.Flags(recursionDesired: true))
    #expect(message.questions == [Question(name: "Ads.Example.com", type: .aaaa)])
    #expect(message.answers.isEmpty && message.authority.isEmpty && message.additional.isEmpty)
    let plain = try Message(decoding: try Message.query(id: 1, name: "x.test", type: .a, recursionDesired: false))
    #expect(!plain.flags.recursionDesired)
  }

  @Test("Every flag and the response code survive encoding and decoding")
  func flagsRoundTrip() throws {
    let flags = Message.Flags(
      isResponse: true, opcode: 2, authoritative: true, truncated: true, recursionDesired: true,
      recursionAvailable: true, authenticData: true, checkingDisabled: true, responseCode: .refused)
    let message = Message(id: 7, flags: flags)
    #expect(try Message(decoding: try message.encoded()) == message)
    #expect(
      try Message(decoding: try Message(id: 7, flags: Message.Flags(responseCode: .other(11))).encoded()).responseCode
        == .other(11))
  }

  @Test("A message with every kind of record round-trips")
  func recordsRoundTrip() throws {
    let soa = RecordData.SOA(
      primary: "ns.test", mailbox: "hostmaster.test", serial: 2_024_010_101, refresh: 3600, retry: 600,
      expire: 86400, minimum: 300)
    let message = Message(
      id: 42, flags: Message.Flags(isResponse: true, responseCode: .noError),
      questions: [Question(name: "a.test", type: .a)],
      answers: [
        Record(name: "a.test", data: .cname("b.test")),
        Record(name: "b.test", data: .a(IPv4Address("192.0.2.7")!)),
        Record(name: "b.test", data: .aaaa(IPv6Address("2001:db8::1")!)),
        Record(name: "b.test", data: .mx(preference: 10, exchange: "mail.test")),
        Record(name: "b.test", data: .txt([Array("v=spf1 -all".utf8), []])),
        Record(name: "1.2.0.192.in-addr.arpa", data: .ptr("b.test")),
        Record(name: "b.test", type: .other(99), data: .raw([1, 2, 3])),
      ],
      authority: [Record(name: "test", ttl: 900, data: .soa(soa)), Record(name: "test", data: .ns("ns.test"))],
      additional: [Record(name: ".", type: .opt, class: 1232, ttl: 0, data: .raw([]))])
    #expect(try Message(decoding: try message.encoded()) == message)
  }

  @Test("A hand-built reply: CNAME chain and compression pointers into the question and into record data")
  func compressedChain() throws {
    let message = try Message(decoding: compressedReply)
    #expect(message.id == 0x1234)
    #expect(message.flags.isResponse && message.flags.recursionAvailable && message.responseCode == .noError)
    #expect(message.questions == [Question(name: "www.example.com", type: .a)])
    #expect(
      message.answers == [
        Record(name: "www.example.com", ttl: 60, data: .cname("cdn.example.com")),
        Record(name: "cdn.example.com", ttl: 60, data: .a(IPv4Address("192.0.2.7")!)),
      ])
    #expect(message.addresses.map(\.description) == ["192.0.2.7"])
  }

  @Test("A hand-built AAAA reply for a blocked name decodes to ::")
  func aaaa() throws {
    var bytes = header(counts: [1, 1, 0, 0])
    bytes += wire("ads", "test") + u16(28) + u16(1)
    bytes += [0xC0, 12] + fields(type: 28, data: [UInt8](repeating: 0, count: 16))
    let message = try Message(decoding: bytes)
    #expect(message.answers.first?.data == .aaaa(.unspecified))
    #expect(message.addresses.map(\.description) == ["::"])
    #expect(message.addresses.allSatisfy { $0.isUnspecified })
  }

  @Test("A hand-built NXDOMAIN with the zone's SOA in the authority section")
  func nxDomain() throws {
    var bytes = header(flags: 0x8183, counts: [1, 0, 1, 0])
    bytes += wire("nope", "example") + u16(1) + u16(1)  // example at 17
    let data =
      [3] + Array("ns1".utf8) + [0xC0, 17] + [10] + Array("hostmaster".utf8) + [0xC0, 17] + u32(7) + u32(3600)
      + u32(600) + u32(86400) + u32(300)
    bytes += [0xC0, 17] + fields(type: 6, ttl: 900, data: data)
    let message = try Message(decoding: bytes)
    #expect(message.responseCode == .nxDomain)
    #expect(message.answers.isEmpty)
    #expect(
      message.authority == [
        Record(
          name: "example", ttl: 900,
          data: .soa(
            RecordData.SOA(
              primary: "ns1.example", mailbox: "hostmaster.example", serial: 7, refresh: 3600, retry: 600,
              expire: 86400, minimum: 300)))
      ])
  }

  @Test("Unknown types and classes keep their bytes; OPT stays raw")
  func unknownTypes() throws {
    var bytes = header(counts: [0, 1, 0, 1])
    bytes += wire("x") + u16(65) + u16(1) + u32(1) + u16(3) + [9, 8, 7]
    bytes += [0] + u16(41) + u16(1232) + u32(0) + u16(0)
    let message = try Message(decoding: bytes)
    #expect(message.answers == [Record(name: "x", type: .other(65), ttl: 1, data: .raw([9, 8, 7]))])
    #expect(message.additional == [Record(name: ".", type: .opt, class: 1232, ttl: 0, data: .raw([]))])
  }

  @Test("Bytes after the last record are ignored")
  func trailingBytes() throws {
    #expect(try Message(decoding: compressedReply + [0, 0, 0]) == Message(decoding: compressedReply))
  }
}
