import Testing

@testable import Blocklists

@Suite("A name set's stored parts")
struct NameSetArchiveTests {
  @Test("Parts taken from a set make the same set; parts that do not fit together make none")
  func parts() {
    var set = NameSet(sourceCount: 2, capacity: 4)
    for index in 0..<100 { set.insert("n\(index).example", source: index % 2) }
    set.remove(3)
    let parts = set.parts
    let rebuilt = NameSet(parts: parts)
    #expect(rebuilt?.names == set.names)
    #expect(rebuilt?.entry(of: "n42.example") == 42 && rebuilt?.sources(of: 41) == [1])
    #expect(rebuilt?.isRemoved(3) == true && rebuilt?.removedCount == 1)

    var shortBytes = parts
    shortBytes.bytes.removeLast()
    var oddTable = parts
    oddTable.slots.removeLast()
    var fullTable = parts
    fullTable.slots = Array(repeating: 0, count: 64)
    var missingBits = parts
    missingBits.sourceBits.removeLast()
    var tooManyRemoved = parts
    tooManyRemoved.removedCount = 101
    for broken in [shortBytes, oddTable, fullTable, missingBits, tooManyRemoved] {
      #expect(NameSet(parts: broken) == nil)
    }
  }
}
