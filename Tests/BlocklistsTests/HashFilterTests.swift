import Testing

@testable import Blocklists

@Suite("Hash filter")
struct HashFilterTests {
  @Test("Holds exactly the hashes it was given, zero and duplicates included")
  func membership() {
    var generator = SystemRandomNumberGenerator()
    let members = (0..<5_000).map { _ in UInt64.random(in: 1...UInt64.max, using: &generator) }
    let filter = HashFilter(members + members.prefix(100) + [0])
    let asSet = Set(members)
    #expect(members.allSatisfy(filter.contains))
    #expect(filter.contains(0))
    for _ in 0..<20_000 {
      let probe = UInt64.random(in: 1...UInt64.max, using: &generator)
      #expect(filter.contains(probe) == asSet.contains(probe))
    }
  }

  @Test("Hashes that share their low bits are all found (linear probing past each other)")
  func collisions() {
    let members = (1...40).map { UInt64($0) << 40 }  // the same slot in any table under 2^40
    let filter = HashFilter(members)
    #expect(members.allSatisfy(filter.contains))
    #expect(!filter.contains(41 << 40))
    #expect(!HashFilter([]).contains(0) && !HashFilter([]).contains(7))
  }
}
