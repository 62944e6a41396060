import Testing

@testable import Blocklists

@Suite("A name set's stored parts")
struct NameSetArchiveTests {
  @Test("A table rebuilt from the names alone (hashed in slices on every core) finds every name and no other")
  func rebuiltTable() {
    var set = NameSet(sourceCount: 1)
    for index in 0..<70_000 { set.insert("n\(index).website", source: 0) }
    var parts = set.parts
    #expect(NameSet.hashes(bytes: parts.bytes, ends: parts.ends).count == 70_000)
    parts.slots = NameSet.table(bytes: parts.bytes, ends: parts.ends)
    let rebuilt = NameSet(parts: parts)
    #expect(rebuilt != nil)
    var misses = 0
    for index in 0..<70_000 {
      let found = rebuilt?.entry(of: "n\(index).website")
      if found != index { misses += 1 }
    }
    #expect(misses == 0)
    #expect(rebuilt?.entry(of: "n70000.website") == nil && rebuilt?.entry(of: "example") == nil)
    // Under 65,536 names the hashing runs in one slice.
    var few = NameSet(sourceCount: 1)
    for index in 0..<10 { few.insert("n\(index).website", source: 0) }
    var fewParts = few.parts
    fewParts.slots = NameSet.table(bytes: fewParts.bytes, ends: fewParts.ends)
    let fewRebuilt = NameSet(parts: fewParts)
    for index in 0..<10 {
      let found = fewRebuilt?.entry(of: "n\(index).website")
      #expect(found == index)
    }
  }

  @Test("Parts taken from a set make the same set; parts that do not fit together make none")
  func parts() {
    var set = NameSet(sourceCount: 2, capacity: 4)
    for index in 0..<100 { set.insert("n\(index).website", source: index % 2) }
    set.remove(3)
    let parts = set.parts
    let rebuilt = NameSet(parts: parts)
    #expect(rebuilt?.names == set.names)
    #expect(rebuilt?.entry(of: "n42.website") == 42 && rebuilt?.sources(of: 41) == [1])
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
