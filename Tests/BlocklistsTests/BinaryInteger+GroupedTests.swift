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
  }
}
