import Foundation

/// A block set file opened for looking a few names up, without loading it: the file stays
/// memory-mapped, and names are found by scanning the hashes its origins keep (4 bytes a name), so
/// no lookup table is rebuilt and no name is copied.
///
/// `why` opens each source's copy file this way: 100 names and their parents against a million-name
/// copy cost one pass over 4 MB of hashes.
public struct BlockSetFile: Sendable {
  /// What the list's first source gave (a copy's own file has one).
  public let report: SourceReport?
  /// The number of entries.
  public let entries: Int
  private let data: Data
  private let bytesStart: Int
  private let endsStart: Int
  private let removedStart: Int
  private let removedWords: Int
  private let fingerprintsStart: Int?
  private let offsetsStart: Int
  private let checkpointsStart: Int
  private let checkpointCount: Int

  /// Opens the file at `path`, if it was written under `fingerprint` by this format version.
  public init?(path: String, fingerprint: String) {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
    guard let layout = data.withUnsafeBytes({ CompiledList.Layout($0, fingerprint: fingerprint) }) else { return nil }
    self.data = data
    report = layout.metadata.sources.first
    entries = layout.entries
    bytesStart = layout.start(of: .bytes)
    endsStart = layout.start(of: .ends)
    removedStart = layout.start(of: .removedBits)
    removedWords = layout.count(of: .removedBits)
    fingerprintsStart = layout.hasOrigins ? layout.start(of: .fingerprints) : nil
    offsetsStart = layout.start(of: .offsets)
    checkpointsStart = layout.start(of: .checkpoints)
    checkpointCount = layout.checkpointCount
    // The ends must never decrease and the last must be the byte count, so every name lies within the
    // names (a damaged file is refused, never read out of bounds).
    let fits = data.withUnsafeBytes { raw in
      var previous: UInt32 = 0
      for entry in 0..<entries {
        let end = self.end(raw, entry)
        if end < previous { return false }
        previous = end
      }
      return Int(previous) == layout.nameBytes
    }
    guard fits else { return nil }
  }

  /// Whether the file says where each name came from.
  public var hasOrigins: Bool { fingerprintsStart != nil || entries == 0 }

  /// The entry of each of `names` (normalised names), nil for those the file does not hold. Removed
  /// entries count as held: the caller asks `isRemoved`.
  public func entries(of names: [String]) -> [Int?] {
    var found = [Int?](repeating: nil, count: names.count)
    guard entries > 0, !names.isEmpty else { return found }
    let wanted = names.map { Array($0.utf8) }
    let hashes = wanted.map { bytes in bytes.withUnsafeBufferPointer { NameHash.hash($0) } }
    // The names by their hash's top 32 bits, and a 64 Kib filter on those bits' low 16.
    var byFingerprint: [UInt32: [Int]] = [:]
    var filter = [UInt64](repeating: 0, count: 1024)
    for (index, hash) in hashes.enumerated() {
      let fingerprint = UInt32(truncatingIfNeeded: hash >> 32)
      byFingerprint[fingerprint, default: []].append(index)
      filter[Int(fingerprint & 0xFFFF) >> 6] |= 1 << UInt64(fingerprint & 63)
    }
    data.withUnsafeBytes { raw in
      func check(_ entry: Int, _ fingerprint: UInt32) {
        guard let candidates = byFingerprint[fingerprint] else { return }
        for candidate in candidates where found[candidate] == nil && equals(raw, entry, wanted[candidate]) {
          found[candidate] = entry
        }
      }
      if let start = fingerprintsStart {
        let fingerprints = raw.baseAddress!.advanced(by: start).assumingMemoryBound(to: UInt32.self)
        for entry in 0..<entries {
          let fingerprint = UInt32(littleEndian: fingerprints[entry])
          if filter[Int(fingerprint & 0xFFFF) >> 6] & (1 << UInt64(fingerprint & 63)) != 0 {
            check(entry, fingerprint)
          }
        }
      } else {
        // A file without origins: every name hashed.
        for entry in 0..<entries {
          let hash = withName(raw, entry) { NameHash.hash($0) }
          check(entry, UInt32(truncatingIfNeeded: hash >> 32))
        }
      }
    }
    return found
  }

  /// An entry's name ("" for an entry that does not exist).
  public func name(_ entry: Int) -> String {
    guard entry >= 0, entry < entries else { return "" }
    return data.withUnsafeBytes { raw in withName(raw, entry) { String(decoding: $0, as: UTF8.self) } }
  }

  /// Whether an entry is marked removed (an allow rule, in a profile's file).
  public func isRemoved(_ entry: Int) -> Bool {
    let word = entry >> 6
    guard entry >= 0, word < removedWords else { return false }
    return data.withUnsafeBytes { raw in
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: removedStart + word * 8, as: UInt64.self))
        & (1 << UInt64(entry & 63)) != 0
    }
  }

  /// Where an entry came from: its line's offset in the source, and the checkpoint at or before it (a
  /// line start with its number, from 1), from which the caller counts lines in the source; nil when the
  /// file keeps no origins.
  public func origin(_ entry: Int) -> (offset: Int, checkpoint: (offset: Int, line: Int))? {
    guard fingerprintsStart != nil, entry >= 0, entry < entries, checkpointCount > 0 else { return nil }
    return data.withUnsafeBytes { raw in
      let offset = Int(
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offsetsStart + entry * 4, as: UInt32.self)))
      func checkpoint(_ index: Int) -> (offset: Int, line: Int) {
        let base = checkpointsStart + index * 16
        let start = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self))
        let line = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self))
        return (Int(clamping: start), Int(clamping: line))
      }
      // The last checkpoint at or before the offset (binary search; the first is the source's first line).
      var low = 0
      var high = checkpointCount - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if checkpoint(middle).offset <= offset { low = middle } else { high = middle - 1 }
      }
      let found = checkpoint(low)
      return found.offset <= offset ? (offset, found) : nil
    }
  }

  // MARK: Private

  private func end(_ raw: UnsafeRawBufferPointer, _ entry: Int) -> UInt32 {
    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: endsStart + entry * 4, as: UInt32.self))
  }

  private func withName<R>(_ raw: UnsafeRawBufferPointer, _ entry: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
  {
    let start = entry == 0 ? 0 : Int(end(raw, entry - 1))
    let stop = max(start, Int(end(raw, entry)))
    let base = raw.baseAddress!.advanced(by: bytesStart).assumingMemoryBound(to: UInt8.self)
    return body(UnsafeBufferPointer(start: base + start, count: stop - start))
  }

  private func equals(_ raw: UnsafeRawBufferPointer, _ entry: Int, _ name: [UInt8]) -> Bool {
    withName(raw, entry) { stored in stored.elementsEqual(name) }
  }
}
