import Foundation

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
  ///
  /// The names are hashed on every core first (the hashing is most of the work), then placed in
  /// batches whose slots are read ahead, so the misses of a batch overlap; built one name at a time,
  /// the table of a 415,768-name profile took a fifth of a first drop-in's apply.
  static func table(bytes: [UInt8], ends: [UInt32]) -> [UInt64] {
    var size = 16
    while size * 7 < max(1, ends.count) * 10 { size <<= 1 }
    var slots = [UInt64](repeating: 0, count: size)
    let mask = size - 1
    let hashes = hashes(bytes: bytes, ends: ends)
    hashes.withUnsafeBufferPointer { hashes in
      slots.withUnsafeMutableBufferPointer { slots in
        var sink: UInt64 = 0
        var batch = 0
        while batch < hashes.count {
          let end = min(batch + 16, hashes.count)
          for entry in batch..<end { sink ^= slots[Int(truncatingIfNeeded: hashes[entry]) & mask] }
          for entry in batch..<end {
            let hash = hashes[entry]
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(entry + 1)
          }
          batch = end
        }
        // Keeps the reads ahead from being optimised away (an empty slot reads 0, a full one never does
        // match this for long).
        if sink == 0x5EED_5EED_5EED_5EED { slots[0] = slots[0] }
      }
    }
    return slots
  }

  /// Every name's `NameHash`, computed in as many slices as there are cores.
  static func hashes(bytes: [UInt8], ends: [UInt32]) -> [UInt64] {
    let count = ends.count
    var hashes = [UInt64](repeating: 0, count: count)
    let slices = count < 1 << 16 ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
    bytes.withUnsafeBufferPointer { all in
      ends.withUnsafeBufferPointer { ends in
        hashes.withUnsafeMutableBufferPointer { hashes in
          let shared = HashingSlices(names: all, ends: ends, output: hashes)
          DispatchQueue.concurrentPerform(iterations: slices) { slice in
            shared.hash(from: count * slice / slices, to: count * (slice + 1) / slices)
          }
        }
      }
    }
    return hashes
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

/// The names, their ends and the hashes being written, shared by the slices of `NameSet.hashes`: the
/// names are only read, and each slice writes its own range of hashes.
private struct HashingSlices: @unchecked Sendable {
  let names: UnsafeBufferPointer<UInt8>
  let ends: UnsafeBufferPointer<UInt32>
  let output: UnsafeMutableBufferPointer<UInt64>

  /// Hashes the names of entries `first..<last`.
  func hash(from first: Int, to last: Int) {
    var start = first == 0 ? 0 : Int(ends[first - 1])
    for entry in first..<last {
      let end = Int(ends[entry])
      output[entry] = NameHash.hash(UnsafeBufferPointer(rebasing: names[start..<end]))
      start = end
    }
  }
}
