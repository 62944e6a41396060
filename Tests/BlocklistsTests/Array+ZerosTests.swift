import Testing

@testable import Blocklists

@Suite("Zero bytes appended as room")
struct ArrayZerosTests {
  @Test("An empty array and a filled one grow by that many zeros; nothing for zero or less")
  func zeros() {
    var empty: [UInt8] = []
    empty.appendZeros(5)
    #expect(empty == [0, 0, 0, 0, 0])
    var filled: [UInt8] = [7, 8]
    filled.appendZeros(3)
    #expect(filled == [7, 8, 0, 0, 0])
    filled.appendZeros(0)
    filled.appendZeros(-1)
    #expect(filled.count == 5)
    var large: [UInt8] = []
    large.appendZeros(1 << 20)
    #expect(large.count == 1 << 20 && large.allSatisfy { $0 == 0 })
  }
}
