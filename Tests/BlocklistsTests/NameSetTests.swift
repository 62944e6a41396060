import Testing

@testable import Blocklists

@Suite("The name set")
struct NameSetTests {
  @Test("Source bits are made only once a second source appears, and then say the same")
  func lazySourceBits() {
    var set = NameSet(sourceCount: 3)
    set.insert("a.website", source: 1)
    set.insert("b.website", source: 1)
    set.insert("a.website", source: 1)
    #expect(set.sources(of: 0) == [1] && set.sources(of: 1) == [1])
    set.insert("b.website", source: 2)
    set.insert("c.website", source: 0)
    #expect(set.sources(of: 0) == [1] && set.sources(of: 1) == [1, 2] && set.sources(of: 2) == [0])
    #expect(NameSet(sourceCount: 1).sources(of: 0) == [])
  }

  @Test("Presence bits: every entry (removed ones too) may be there; most absent names are surely not")
  func presence() {
    var set = NameSet(sourceCount: 1)
    for index in 0..<20_000 { set.insert("name-\(index).website", source: 0) }
    set.remove(7)
    let presence = set.presence()
    func hash(_ name: String) -> UInt64 {
      var bytes = Array(name.utf8)
      return bytes.withUnsafeMutableBufferPointer { NameHash.hash(UnsafeBufferPointer($0)) }
    }
    #expect((0..<20_000).allSatisfy { presence.mayContain(hash("name-\($0).website")) })
    let falsePositives = (0..<20_000).filter { presence.mayContain(hash("other-\($0).website")) }.count
    // About one bit in sixteen is set.
    #expect(falsePositives < 2_000, "\(falsePositives) of 20,000 absent names may be there")
    #expect(!NameSet(sourceCount: 1).presence().mayContain(hash("a.website")))
  }

  @Test("Prefetching slots, entries and names of present, absent and empty batches changes nothing")
  func prefetch() {
    var set = NameSet(sourceCount: 1)
    let empty = UnsafeBufferPointer<UInt64>(start: nil, count: 0)
    set.prefetchSlots(empty)
    set.prefetchEntries(empty)
    set.prefetchNames(empty)
    set.insert("a.website", source: 0)
    set.insert("b.website", source: 0)
    func hash(_ name: String) -> UInt64 {
      var bytes = Array(name.utf8)
      return bytes.withUnsafeMutableBufferPointer { NameHash.hash(UnsafeBufferPointer($0)) }
    }
    // Entry 0 (no end offset before it), entry 1, an absent name, and a hash whose slot is taken by
    // another name's fingerprint-less neighbour.
    let hashes = [hash("a.website"), hash("b.website"), hash("absent.website"), 0, UInt64.max]
    hashes.withUnsafeBufferPointer { batch in
      set.prefetchSlots(batch)
      set.prefetchEntries(batch)
      set.prefetchNames(batch)
    }
    #expect(set.names == ["a.website", "b.website"])
    #expect(set.entry(of: "b.website") == 1 && set.entry(of: "absent.website") == nil)
  }

  @Test("Bytes compared eight at a time: equal at every length to 40, unequal wherever one byte differs")
  func sameBytes() {
    for length in 0...40 {
      let a = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
      a.withUnsafeBytes { left in
        var b = a
        b.withUnsafeBytes {
          #expect(
            NameSet.sameBytes(
              left.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!,
              length))
        }
        for position in 0..<length {
          b = a
          b[position] ^= 0x20
          b.withUnsafeBytes {
            #expect(!NameSet.sameBytes(left.baseAddress!, $0.baseAddress!, length), "\(length) at \(position)")
          }
        }
      }
    }
  }

  @Test("Insertion order, dedup, sources and removal")
  func basics() {
    var set = NameSet(sourceCount: 70, capacity: 4)
    let first = set.insert("b.example.com", source: 0)
    let second = set.insert("a.example.com", source: 1)
    let again = set.insert("b.example.com", source: 69)
    #expect(first && second && !again)
    #expect(set.names == ["b.example.com", "a.example.com"])
    #expect(set.sources(of: set.entry(of: "b.example.com")!) == [0, 69])
    set.remove(0)
    set.remove(0)
    #expect(set.count == 1 && set.removedCount == 1)
    #expect(!set.contains("b.example.com") && set.contains("a.example.com"))
    #expect(set.description == "NameSet(1 names, 1 removed)")
  }

  @Test("Growing keeps every name findable")
  func growth() {
    var set = NameSet(sourceCount: 1, capacity: 1)
    for index in 0..<50_000 { set.insert("n\(index).example.com", source: 0) }
    #expect(set.count == 50_000)
    let misplaced = (0..<50_000).filter { (index: Int) -> Bool in set.entry(of: "n\(index).example.com") != index }
    #expect(misplaced.isEmpty)
    #expect(set.entry(of: "missing.example.com") == nil)
  }
}
