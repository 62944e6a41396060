import DNS
import Testing

@Suite("Record types")
struct RecordTypeTests {
  @Test("Numbers map to the named cases and back; equal numbers are equal types")
  func numbers() {
    let named: [(RecordType, UInt16, String)] = [
      (.a, 1, "A"), (.ns, 2, "NS"), (.cname, 5, "CNAME"), (.soa, 6, "SOA"), (.ptr, 12, "PTR"), (.mx, 15, "MX"),
      (.txt, 16, "TXT"), (.aaaa, 28, "AAAA"), (.opt, 41, "OPT"),
    ]
    for (type, number, text) in named {
      #expect(RecordType(rawValue: number) == type)
      #expect(type.rawValue == number)
      #expect(type.description == text)
    }
    #expect(RecordType(rawValue: 65) == .other(65))
    #expect(RecordType.other(65).description == "TYPE65")
    #expect(RecordType.other(28) == .aaaa)
    #expect(Set([RecordType.other(1), .a]).count == 1)
  }
}
