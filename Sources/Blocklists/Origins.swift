/// Where each name of a list came from: the line of its first sighting in the source, where that line
/// starts, and the top 32 bits of the name's hash.
///
/// A copy's own block set file keeps them beside its names, so `why` finds a name's entry by scanning
/// the hashes (no lookup table to rebuild) and shows the line it was read from (its number, and its
/// text read from the copy at the offset).
public struct Origins: Sendable, Hashable {
  /// Each entry's hash, top 32 bits (`NameHash.hash(name) >> 32`).
  public internal(set) var fingerprints: [UInt32] = []
  /// Each entry's line number in the source, from 1.
  public internal(set) var lines: [UInt32] = []
  /// Where each entry's line starts in the source, in bytes.
  public internal(set) var offsets: [UInt64] = []

  /// No origins.
  public init() {}

  /// The number of entries.
  public var count: Int { lines.count }

  /// Adds the next entry's origin.
  @inline(__always)
  mutating func append(hash: UInt64, line: Int, offset: Int) {
    fingerprints.append(UInt32(truncatingIfNeeded: hash >> 32))
    lines.append(UInt32(truncatingIfNeeded: line))
    offsets.append(UInt64(offset))
  }

  /// Makes room for `count` entries.
  mutating func reserve(_ count: Int) {
    fingerprints.reserveCapacity(count)
    lines.reserveCapacity(count)
    offsets.reserveCapacity(count)
  }

  /// Whether the three columns have `entries` rows each (or are all empty).
  func fits(_ entries: Int) -> Bool {
    (count == 0 || count == entries) && fingerprints.count == count && offsets.count == count
  }
}
