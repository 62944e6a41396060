import SystemExtras

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A set of names in first-seen order, remembering which sources list each name.
///
/// Names live one after another in a byte arena; an open-addressing table of entry numbers finds
/// them by hash. Each entry carries a bit per source, so "which list blocks this?" is one lookup.
/// Removing a name (an allow rule, compression) only marks it, so the order never changes and the
/// same input always gives the same output.
public struct NameSet: Sendable {
  private(set) var bytes: [UInt8] = []
  private(set) var ends: [UInt32] = []
  /// Open-addressing table: 0 for empty, else the hash's top 32 bits and the entry number + 1.
  private(set) var slots: [UInt64]
  private var mask: Int
  /// Each entry's source bits, `wordsPerEntry` words an entry; empty while every entry comes from
  /// `soleSource` (a single list compiled alone: 8 bytes a name saved, 32 MB on a 4M-name list).
  private(set) var sourceBits: [UInt64] = []
  /// Whether `sourceBits` is kept (a second source has been seen, or the set was read back whole).
  private var keepsSourceBits = false
  /// The source of every entry while `sourceBits` is not kept (nil before the first entry).
  private var soleSource: Int?
  private(set) var removedBits: [UInt64] = []
  /// How many 64-bit words of source bits each entry has.
  public let wordsPerEntry: Int
  /// How many names are marked removed.
  public private(set) var removedCount = 0

  /// Creates an empty set for names from up to `sourceCount` sources, sized for `capacity` names
  /// holding about `byteCapacity` bytes in all (reserved, not touched: unused room costs no memory).
  public init(sourceCount: Int, capacity: Int = 1024, byteCapacity: Int? = nil) {
    wordsPerEntry = max(1, (sourceCount + 63) / 64)
    var size = 16
    while size * 7 < capacity * 10 { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    bytes.reserveCapacity(byteCapacity ?? capacity * 24)
    ends.reserveCapacity(capacity)
  }

  /// A set of stored parts (see `NameSet+Archive`).
  init(
    bytes: [UInt8], ends: [UInt32], slots: [UInt64], mask: Int, sourceBits: [UInt64], removedBits: [UInt64],
    wordsPerEntry: Int, removedCount: Int
  ) {
    self.bytes = bytes
    self.ends = ends
    self.slots = slots
    self.mask = mask
    self.sourceBits = sourceBits
    keepsSourceBits = true
    self.removedBits = removedBits
    self.wordsPerEntry = wordsPerEntry
    self.removedCount = removedCount
  }

  /// Entries ever inserted, removed ones included.
  public var entryCount: Int { ends.count }

  /// Names present (not removed).
  public var count: Int { ends.count - removedCount }

  /// Adds a name for a source; returns whether the name is new to the set.
  @discardableResult
  @inline(__always)
  public mutating func insert(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64, source: Int) -> Bool {
    insert(name, hash: hash, sighting: source) == .new
  }

  /// What `insert(_:hash:sighting:)` found.
  public enum Sighting: Sendable {
    /// The name is new to the set.
    case new
    /// The set had the name, but not from this source.
    case newToSource
    /// The source had already given the name.
    case repeated
  }

  /// Adds a name for a source; tells whether it is new to the set, new to that source, or a repeat of it.
  @inline(__always)
  public mutating func insert(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64, sighting source: Int) -> Sighting {
    if ends.count * 10 >= slots.count * 7 { grow() }
    if !keepsSourceBits, let soleSource, soleSource != source { keepSourceBits() }
    let fingerprint = hash & 0xFFFF_FFFF_0000_0000
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let value = slots[slot]
      if value == 0 {
        insertNew(name, at: slot, fingerprint: fingerprint, source: source)
        return .new
      }
      if value & 0xFFFF_FFFF_0000_0000 == fingerprint {
        let entry = Int(value & 0xFFFF_FFFF) - 1
        if equals(entry, name) {
          // Without source bits every entry is this source's (another source would have made them).
          guard keepsSourceBits else { return .repeated }
          let index = entry * wordsPerEntry + (source >> 6)
          let bit: UInt64 = 1 << UInt64(source & 63)
          if sourceBits[index] & bit != 0 { return .repeated }
          sourceBits[index] |= bit
          return .newToSource
        }
      }
      slot = (slot + 1) & mask
    }
  }

  /// Inserts a parsed block's names for a source, in order, with the hashes the parser took, telling
  /// `each` what every insert found.
  ///
  /// Four stages, a batch of `Compiler.Merger.batchSize` names apart: the slots of batch k + 3 are
  /// prefetched, the entries of k + 2 (their end offsets), the names of k + 1, and batch k is inserted.
  /// Each load has a batch's work to arrive, instead of the inserts waiting on misses in a table of
  /// millions. The one loop of a compile's merge and of an update's (`Compiler.Merging.add(_:name:)`).
  @inline(__always)
  mutating func insert(
    _ parsed: ParsedNames, source: Int, _ each: (Sighting, UnsafeBufferPointer<UInt8>, Int) -> Void
  ) {
    parsed.bytes.withUnsafeBufferPointer { bytes in
      parsed.hashes.withUnsafeBufferPointer { hashes in
        parsed.ends.withUnsafeBufferPointer { ends in
          let size = Compiler.Merger.batchSize
          let count = ends.count
          func batch(_ number: Int) -> UnsafeBufferPointer<UInt64> {
            let start = min(number * size, count)
            return UnsafeBufferPointer(rebasing: hashes[start..<min(start + size, count)])
          }
          for number in -3..<0 { prefetch(ahead: number, batch) }
          var start = 0
          var number = 0
          while number * size < count {
            prefetch(ahead: number, batch)
            let first = number * size
            for index in first..<min(first + size, count) {
              let end = Int(ends[index])
              let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
              each(insert(name, hash: hashes[index], sighting: source), name, index)
              start = end
            }
            number += 1
          }
        }
      }
    }
  }

  /// Fills an empty slot with a new entry for a name.
  @inline(__always)
  private mutating func insertNew(_ name: UnsafeBufferPointer<UInt8>, at slot: Int, fingerprint: UInt64, source: Int) {
    slots[slot] = fingerprint | UInt64(ends.count + 1)
    bytes.append(contentsOf: name)
    ends.append(UInt32(bytes.count))
    if !keepsSourceBits {
      soleSource = source
    } else if wordsPerEntry == 1 {
      sourceBits.append(1 << UInt64(source & 63))
    } else {
      sourceBits.append(contentsOf: repeatElement(0, count: wordsPerEntry))
      setSource(source, of: ends.count - 1)
    }
  }

  /// Starts loading the table slots of a batch of hashes, without waiting: the first of the three
  /// prefetch stages that `prefetchEntries` and `prefetchNames` continue, a batch apart each, so that a
  /// batch's inserts find everything in cache (see `Compiler.Merger`).
  @inline(__always)
  public func prefetchSlots(_ hashes: UnsafeBufferPointer<UInt64>) {
    slots.withUnsafeBufferPointer { slots in
      guard let base = slots.baseAddress else { return }
      for hash in hashes { prefetch_for_write(base + (Int(truncatingIfNeeded: hash) & mask)) }
    }
  }

  /// Reads the slots of a batch whose slots were prefetched, and starts loading the end offset of each
  /// name a fingerprint matches (the name is then likely the same: a repeated name).
  @inline(__always)
  public func prefetchEntries(_ hashes: UnsafeBufferPointer<UInt64>) {
    slots.withUnsafeBufferPointer { slots in
      ends.withUnsafeBufferPointer { ends in
        guard let endsBase = ends.baseAddress else { return }
        for hash in hashes {
          if let entry = Self.homeEntry(of: hash, in: slots, mask: mask), entry > 0 {
            prefetch_for_read(endsBase + entry - 1)
          }
        }
      }
    }
  }

  /// Reads the end offsets that `prefetchEntries` fetched, and starts loading the names' first bytes.
  @inline(__always)
  public func prefetchNames(_ hashes: UnsafeBufferPointer<UInt64>) {
    slots.withUnsafeBufferPointer { slots in
      ends.withUnsafeBufferPointer { ends in
        bytes.withUnsafeBufferPointer { bytes in
          guard let bytesBase = bytes.baseAddress else { return }
          for hash in hashes {
            if let entry = Self.homeEntry(of: hash, in: slots, mask: mask) {
              prefetch_for_read(bytesBase + (entry == 0 ? 0 : Int(ends[entry - 1])))
            }
          }
        }
      }
    }
  }

  /// Runs the prefetch stages ahead of inserting batch `number` (of `batch(n)`'s hashes): the slots of
  /// batch `number + 3`, the entries of `number + 2`, the names of `number + 1`. Called with -3, -2 and
  /// -1 first, it fills the pipeline; batches before 0 are skipped.
  @inline(__always)
  public func prefetch(ahead number: Int, _ batch: (Int) -> UnsafeBufferPointer<UInt64>) {
    if number + 3 >= 0 { prefetchSlots(batch(number + 3)) }
    if number + 2 >= 0 { prefetchEntries(batch(number + 2)) }
    if number + 1 >= 0 { prefetchNames(batch(number + 1)) }
  }

  /// The entry in a hash's home slot when the slot's fingerprint is the hash's, else nil.
  @inline(__always)
  private static func homeEntry(of hash: UInt64, in slots: UnsafeBufferPointer<UInt64>, mask: Int) -> Int? {
    let value = slots[Int(truncatingIfNeeded: hash) & mask]
    guard value != 0, value & 0xFFFF_FFFF_0000_0000 == hash & 0xFFFF_FFFF_0000_0000 else { return nil }
    return Int(value & 0xFFFF_FFFF) - 1
  }

  /// Adds a name given as text (already normalised).
  @discardableResult
  public mutating func insert(_ name: String, source: Int) -> Bool {
    var utf8 = Array(name.utf8)
    return utf8.withUnsafeMutableBufferPointer {
      let buffer = UnsafeBufferPointer($0)
      return insert(buffer, hash: NameHash.hash(buffer), source: source)
    }
  }

  /// The entry number of a name, if present (removed names included).
  public func entry(of name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
    let fingerprint = hash & 0xFFFF_FFFF_0000_0000
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let value = slots[slot]
      if value == 0 { return nil }
      if value & 0xFFFF_FFFF_0000_0000 == fingerprint {
        let entry = Int(value & 0xFFFF_FFFF) - 1
        if equals(entry, name) { return entry }
      }
      slot = (slot + 1) & mask
    }
  }

  /// The entry number of a name given as text.
  public func entry(of name: String) -> Int? {
    var utf8 = Array(name.utf8)
    return utf8.withUnsafeMutableBufferPointer {
      let buffer = UnsafeBufferPointer($0)
      return entry(of: buffer, hash: NameHash.hash(buffer))
    }
  }

  /// Whether a name is present and not removed.
  public func contains(_ name: String) -> Bool {
    entry(of: name).map { !isRemoved($0) } ?? false
  }

  /// A bit per value of the hashes' top bits, set for every entry's hash (removed ones too), made from
  /// the table in one pass: a name whose bit is clear is not in the set, known without a miss in the
  /// table. About 16 bits a name, so it stays in cache where the table does not.
  public func presence() -> Presence {
    var log2 = 16
    while (1 << log2) < ends.count * 16 && log2 < 32 { log2 += 1 }
    var bits = [UInt64](repeating: 0, count: (1 << log2) / 64)
    let shift = UInt64(64 - log2)
    bits.withUnsafeMutableBufferPointer { bits in
      for value in slots where value != 0 {
        // A slot keeps the hash's top 32 bits: enough for up to 2^32 bits.
        let index = Int(truncatingIfNeeded: value >> shift)
        bits[index >> 6] |= 1 << UInt64(index & 63)
      }
    }
    return Presence(bits: bits, shift: shift)
  }

  /// The bits `presence()` makes.
  public struct Presence: Sendable {
    let bits: [UInt64]
    let shift: UInt64

    /// False when no entry has this hash; true when one may.
    @inline(__always)
    public func mayContain(_ hash: UInt64) -> Bool {
      let index = Int(truncatingIfNeeded: hash >> shift)
      return bits[index >> 6] & (1 << UInt64(index & 63)) != 0
    }
  }

  /// Calls `body` with the bytes of an entry's name.
  @inline(__always)
  public func withName<R, E: Error>(_ entry: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
    let start = entry == 0 ? 0 : Int(ends[entry - 1])
    let end = Int(ends[entry])
    return try bytes.withUnsafeBufferPointer { (all) throws(E) -> R in
      try body(UnsafeBufferPointer(rebasing: all[start..<end]))
    }
  }

  /// Where the names of a range of entries lie in the byte arena (a non-empty range).
  func byteRange(_ entries: Range<Int>) -> Range<Int> {
    (entries.lowerBound == 0 ? 0 : Int(ends[entries.lowerBound - 1]))..<Int(ends[entries.upperBound - 1])
  }

  /// Calls `body` with the byte arena and every entry's end offset in it, for loops over many entries.
  @inline(__always)
  func withStorage<R>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { bytes in try ends.withUnsafeBufferPointer { ends in try body(bytes, ends) } }
  }

  /// The name of an entry as text.
  public func name(_ entry: Int) -> String { withName(entry) { String(decoding: $0, as: UTF8.self) } }

  /// The sources (by index) that list an entry.
  public func sources(of entry: Int) -> [Int] {
    if !keepsSourceBits { return soleSource.map { [$0] } ?? [] }
    var result: [Int] = []
    for word in 0..<wordsPerEntry {
      var bits = sourceBits[entry * wordsPerEntry + word]
      while bits != 0 {
        result.append(word * 64 + bits.trailingZeroBitCount)
        bits &= bits - 1
      }
    }
    return result
  }

  /// Calls `body` with each source (by index) that lists an entry, in order, without an array.
  @inline(__always)
  public func forEachSource(of entry: Int, _ body: (Int) -> Void) {
    guard keepsSourceBits else {
      if let soleSource { body(soleSource) }
      return
    }
    for word in 0..<wordsPerEntry {
      var bits = sourceBits[entry * wordsPerEntry + word]
      while bits != 0 {
        body(word * 64 + bits.trailingZeroBitCount)
        bits &= bits - 1
      }
    }
  }

  /// Whether an entry has been removed.
  @inline(__always)
  public func isRemoved(_ entry: Int) -> Bool {
    let word = entry >> 6
    return word < removedBits.count && removedBits[word] & (1 << UInt64(entry & 63)) != 0
  }

  /// Marks an entry removed; it stays findable with `entry(of:)` but is no longer output.
  public mutating func remove(_ entry: Int) {
    let word = entry >> 6
    if word >= removedBits.count {
      removedBits.append(contentsOf: repeatElement(0, count: word - removedBits.count + 1))
    }
    let bit: UInt64 = 1 << UInt64(entry & 63)
    if removedBits[word] & bit == 0 {
      removedBits[word] |= bit
      removedCount += 1
    }
  }

  /// The names present, in first-seen order.
  public var names: [String] { (0..<entryCount).filter { !isRemoved($0) }.map(name) }

  // MARK: Private

  /// Every entry's source bits, made now that a second source appears.
  private mutating func keepSourceBits() {
    keepsSourceBits = true
    sourceBits = sourceBitsOfSoleSource
  }

  /// The source bits every entry would have while they all come from `soleSource`.
  var sourceBitsOfSoleSource: [UInt64] {
    guard let soleSource else { return [] }
    var bits = [UInt64](repeating: 0, count: ends.count * wordsPerEntry)
    for entry in 0..<ends.count { bits[entry * wordsPerEntry + (soleSource >> 6)] = 1 << UInt64(soleSource & 63) }
    return bits
  }

  /// Whether every entry comes from source 0 with no source bits kept (what a lean file leaves out).
  var onlySourceZero: Bool { !keepsSourceBits && (soleSource ?? 0) == 0 }

  private mutating func setSource(_ source: Int, of entry: Int) {
    sourceBits[entry * wordsPerEntry + (source >> 6)] |= 1 << UInt64(source & 63)
  }

  @inline(__always)
  private func equals(_ entry: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = entry == 0 ? 0 : Int(ends[entry - 1])
    let end = Int(ends[entry])
    guard end - start == name.count else { return false }
    return bytes.withUnsafeBufferPointer { stored in
      Self.sameBytes(UnsafeRawPointer(stored.baseAddress! + start), UnsafeRawPointer(name.baseAddress!), name.count)
    }
  }

  /// Whether `count` bytes at `a` and `b` are the same: eight at a time, the last eight read again when
  /// the count is not a multiple (a call to `memcmp` for names of 30 bytes cost more than the compare).
  @inline(__always)
  static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    guard count >= 8 else { return count == 0 || memcmp(a, b, count) == 0 }
    var offset = 0
    while offset + 8 <= count {
      if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    return offset == count
      || a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
  }

  private mutating func grow() {
    let size = slots.count * 2
    slots = Array(repeating: 0, count: size)
    mask = size - 1
    for entry in 0..<ends.count {
      let hash = withName(entry) { NameHash.hash($0) }
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(entry + 1)
    }
  }
}

extension NameSet: CustomStringConvertible {
  /// A short summary, so test failures and logs do not print millions of bytes.
  public var description: String { "NameSet(\(count) names, \(removedCount) removed)" }
}
