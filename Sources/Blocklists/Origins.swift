/// Where each name of a list came from: where the line of its first sighting starts in the source, and
/// the top 32 bits of the name's hash; with checkpoints that give a line number every 4 KiB or so.
///
/// A copy's own block set file keeps them beside its names (8 bytes a name), so `why` finds a name's
/// entry by scanning the hashes (no lookup table to rebuild) and shows the line it was read from: its
/// text read from the copy at the offset, its number counted from the checkpoint before it (at most a
/// few KiB of the copy read). A line number a name (4 bytes more) cost a first update a tenth more.
public struct Origins: Sendable, Hashable {
  /// The distance between checkpoints: the first line starting at or after each multiple is one.
  public static let checkpointSpacing = 4096

  /// Each entry's hash, top 32 bits (`NameHash.hash(name) >> 32`).
  public internal(set) var fingerprints: [UInt32] = []
  /// Where each entry's line starts in the source, in bytes.
  public internal(set) var offsets: [UInt32] = []
  /// Line starts with their line numbers, in order: offset, line, offset, line…
  public internal(set) var checkpoints: [UInt64] = []

  /// No origins.
  public init() {}

  /// The number of entries.
  public var count: Int { offsets.count }

  /// Adds the next entry's origin.
  @inline(__always)
  mutating func append(hash: UInt64, offset: Int) {
    fingerprints.append(UInt32(truncatingIfNeeded: hash >> 32))
    offsets.append(UInt32(truncatingIfNeeded: offset))
  }

  /// Adds the origins of a block's names at `picks` (indexes into the block), in that order.
  mutating func append(_ picks: [UInt32], of block: ParsedNames) {
    let base = block.byteOffset
    picks.withUnsafeBufferPointer { picks in
      block.hashes.withUnsafeBufferPointer { hashes in
        block.lineStarts.withUnsafeBufferPointer { starts in
          fingerprints.append(contentsOf: picks.lazy.map { UInt32(truncatingIfNeeded: hashes[Int($0)] >> 32) })
          offsets.append(contentsOf: picks.lazy.map { UInt32(truncatingIfNeeded: base + Int(starts[Int($0)])) })
        }
      }
    }
  }

  /// Adds a block's checkpoints (block-relative starts and lines, in pairs) at its offset and first line.
  mutating func appendCheckpoints(_ block: [UInt32], byteOffset: Int, lineOffset: Int) {
    var index = 0
    while index + 1 < block.count {
      checkpoints.append(UInt64(byteOffset + Int(block[index])))
      checkpoints.append(UInt64(lineOffset + Int(block[index + 1])))
      index += 2
    }
  }

  /// Makes room for `count` entries.
  mutating func reserve(_ count: Int) {
    fingerprints.reserveCapacity(count)
    offsets.reserveCapacity(count)
  }

  /// Whether every entry has an offset (sources over 4 GiB keep none: their offsets do not fit).
  static func fits(byteOffset: Int, of block: ParsedNames) -> Bool {
    block.recordsOrigins && block.lineStarts.count == block.count
      && byteOffset + Int(block.sourceBytes) < Int(UInt32.max)
  }
}
