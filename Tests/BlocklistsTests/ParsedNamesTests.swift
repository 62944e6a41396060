import Testing

@testable import Blocklists

@Suite("Parsed names and their hash")
struct ParsedNamesTests {
  /// The hash written plainly, byte by byte: what `NameHash.hash` must equal.
  static func reference(_ bytes: [UInt8]) -> UInt64 {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var index = 0
    while index + 8 <= bytes.count {
      var word: UInt64 = 0
      for byte in 0..<8 { word |= UInt64(bytes[index + byte]) << UInt64(8 * byte) }
      state = NameHash.step(state, word)
      index += 8
    }
    if index < bytes.count {
      var tail: UInt64 = 0
      for byte in index..<bytes.count { tail |= UInt64(bytes[byte]) << UInt64(8 * (byte - index)) }
      state = NameHash.step(state, tail)
    }
    return NameHash.mix(state)
  }

  static func hash(_ text: String) -> UInt64 {
    Array(text.utf8).withUnsafeBufferPointer { NameHash.hash($0) }
  }

  @Test("The hash of every length from 0 to 40 bytes equals the plain byte-by-byte definition")
  func lengths() {
    for length in 0...40 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
      #expect(bytes.withUnsafeBufferPointer { NameHash.hash($0) } == Self.reference(bytes), "length \(length)")
    }
  }

  @Test("50,000 similar names: no two hashes alike, and their low bits spread evenly over 1,024 slots")
  func spread() {
    var seen = Set<UInt64>()
    var slots = [Int](repeating: 0, count: 1024)
    for index in 0..<50_000 {
      let hash = Self.hash("h\(index).ads.example.com")
      seen.insert(hash)
      slots[Int(hash & 1023)] += 1
    }
    #expect(seen.count == 50_000)
    // About 49 a slot; a fair hash keeps every slot within a few standard deviations (7).
    #expect(slots.min()! > 15 && slots.max()! < 90, "\(slots.min()!)…\(slots.max()!)")
    // Names that differ in their last byte only, or in their length only, differ everywhere.
    let a = Self.hash("tracker.example.com")
    let b = Self.hash("tracker.example.con")
    #expect((a ^ b).nonzeroBitCount > 16)
    #expect(Self.hash("a") != Self.hash("a\u{0}"))
  }

  @Test("Cleared names keep their room and forget their names and findings")
  func clear() {
    var names = ParsedNames()
    names.reserve(bytes: 1 << 16)
    Array("ads.example.com".utf8).withUnsafeBufferPointer { names.append($0) }
    names.findings.names = 1
    names.lineCount = 1
    let room = names.bytes.capacity
    names.clear()
    #expect(names.count == 0 && names.bytes.isEmpty && names.hashes.isEmpty && names.lineCount == 0)
    #expect(names.findings.names == 0)
    #expect(names.bytes.capacity == room)
  }
}
