/// The raw parts of a `NameSet`, for writing it to a compiled block set file and reading it back whole:
/// the table is stored as it is, so a set read back needs no rehashing.
extension NameSet {
  /// The arrays and counters that make up a set.
  struct Parts {
    var bytes: [UInt8]
    var ends: [UInt32]
    var slots: [UInt64]
    var sourceBits: [UInt64]
    var removedBits: [UInt64]
    var wordsPerEntry: Int
    var removedCount: Int
  }

  /// The set's parts, with every entry's source bits.
  var parts: Parts { parts(keepingSourceBits: true) }

  /// The set's parts; without `keepingSourceBits`, the bits of a set whose entries all come from
  /// source 0 are left empty rather than made (a lean file leaves them out and its reader refills them).
  func parts(keepingSourceBits: Bool) -> Parts {
    let bits = keepingSourceBits || !onlySourceZero || wordsPerEntry != 1 ? sourceBitsKeptOrMade : []
    return Parts(
      bytes: bytes, ends: ends, slots: slots, sourceBits: bits, removedBits: removedBits,
      wordsPerEntry: wordsPerEntry, removedCount: removedCount)
  }

  /// The source bits as kept, or made from the sole source.
  private var sourceBitsKeptOrMade: [UInt64] { sourceBits.isEmpty ? sourceBitsOfSoleSource : sourceBits }

  /// A lookup table for names stored one after another (`ends` their end offsets): what `insert`
  /// would have built, without copying a name.
  static func table(bytes: [UInt8], ends: [UInt32]) -> [UInt64] {
    var size = 16
    while size * 7 < max(1, ends.count) * 10 { size <<= 1 }
    var slots = [UInt64](repeating: 0, count: size)
    let mask = size - 1
    bytes.withUnsafeBufferPointer { all in
      var start = 0
      for (entry, end) in ends.enumerated() {
        let hash = NameHash.hash(UnsafeBufferPointer(rebasing: all[start..<Int(end)]))
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(entry + 1)
        start = Int(end)
      }
    }
    return slots
  }

  /// A set made of parts read back; nil when they do not fit together (a damaged file).
  init?(parts: Parts) {
    let size = parts.slots.count
    guard size >= 16, size & (size - 1) == 0, parts.wordsPerEntry >= 1,
      parts.sourceBits.count == parts.ends.count * parts.wordsPerEntry,
      parts.ends.count < size, parts.ends.last.map({ Int($0) == parts.bytes.count }) ?? parts.bytes.isEmpty,
      parts.removedBits.count <= (parts.ends.count + 63) / 64, parts.removedCount <= parts.ends.count
    else { return nil }
    self.init(
      bytes: parts.bytes, ends: parts.ends, slots: parts.slots, mask: size - 1, sourceBits: parts.sourceBits,
      removedBits: parts.removedBits, wordsPerEntry: parts.wordsPerEntry, removedCount: parts.removedCount)
  }
}
