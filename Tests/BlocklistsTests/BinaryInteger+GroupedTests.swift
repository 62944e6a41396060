import Testing

@testable import Blocklists

@Suite("Numbers with thousands separators")
struct BinaryIntegerGroupedTests {
  @Test("Commas every three digits, whatever the machine's locale; small and negative numbers too")
  func grouped() {
    #expect(1_234_567.grouped == "1,234,567")
    #expect(999.grouped == "999")
    #expect((-56_712).grouped == "-56,712")
    #expect(UInt32(70_000).grouped == "70,000")
    #expect(0.grouped == "0" && 1_000.grouped == "1,000" && 100_000.grouped == "100,000")
    #expect(Int.min.grouped == "-9,223,372,036,854,775,808")
    #expect(UInt64.max.grouped == "18,446,744,073,709,551,615")
  }
}
