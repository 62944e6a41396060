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

  /// The set's parts.
  var parts: Parts {
    Parts(
      bytes: bytes, ends: ends, slots: slots, sourceBits: sourceBits, removedBits: removedBits,
      wordsPerEntry: wordsPerEntry, removedCount: removedCount)
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
