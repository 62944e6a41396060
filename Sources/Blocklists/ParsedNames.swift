/// Names found in one block of a list, in order, with their hashes: the unit handed from parsing to merging.
public struct ParsedNames: Sendable {
  /// The names' bytes, one after another.
  var bytes: [UInt8] = []
  /// Where each name ends in `bytes`.
  var ends: [UInt32] = []
  /// Each name's hash.
  var hashes: [UInt64] = []
  /// What the block's lines held.
  public var findings = Findings()
  /// The number of lines in the block.
  var lineCount = 0
  /// The bytes of the block's lines.
  var sourceBytes = 0
  /// Whether each name's line start is kept (`lineStarts`, `checkpoints`), for `why`: a copy's own block
  /// set file says where each of its names came from. Off for plain compiles, which pay nothing for it.
  var recordsOrigins = false
  /// Where each name's line starts in the block, when `recordsOrigins`.
  var lineStarts: [UInt32] = []
  /// Line starts in the block with their line numbers (from 1), in pairs, about every 4 KiB.
  var checkpoints: [UInt32] = []
  /// Where the line being parsed starts in the block.
  var currentLineStart: UInt32 = 0
  /// Where the block starts in its source, in bytes.
  var byteOffset = 0

  /// The number of names.
  public var count: Int { ends.count }

  /// Empties it for another block, keeping the room it has.
  mutating func clear() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    hashes.removeAll(keepingCapacity: true)
    lineStarts.removeAll(keepingCapacity: true)
    checkpoints.removeAll(keepingCapacity: true)
    findings = Findings()
    lineCount = 0
    sourceBytes = 0
  }

  mutating func reserve(bytes: Int) {
    self.bytes.reserveCapacity(bytes / 2)
    ends.reserveCapacity(bytes / 24)
    hashes.reserveCapacity(bytes / 24)
    if recordsOrigins { lineStarts.reserveCapacity(bytes / 24) }
  }

  mutating func append(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil) {
    bytes.append(contentsOf: name)
    ends.append(UInt32(bytes.count))
    hashes.append(hash ?? NameHash.hash(name))
    if recordsOrigins { lineStarts.append(currentLineStart) }
  }

  /// The names as strings, for tests and small lists.
  public var names: [String] {
    var start = 0
    return ends.map { end in
      defer { start = Int(end) }
      return String(decoding: bytes[start..<Int(end)], as: UTF8.self)
    }
  }
}

/// A fast, well-mixed 64-bit hash of a name's (or any line's) bytes, eight bytes per step.
///
/// Each step is one multiplication and a rotation, and the result is mixed once at the end (the
/// finaliser of MurmurHash3), so every input bit reaches every output bit. It changed on 25 Nov (from a
/// full mix per step, 35 % of the merge's hashing time) with the block set format's version, since
/// those files keep hash-ordered tables.
public enum NameHash {
  /// The hash of some bytes.
  public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = bytes.count
    var h = start(count)
    guard let base = bytes.baseAddress else { return mix(h) }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    while offset + 8 <= count {
      h = step(h, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    let remaining = count - offset
    guard remaining > 0 else { return mix(h) }
    var tail: UInt64
    if count >= 8 {
      // The last eight bytes, shifted so that only those not hashed yet remain.
      tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64(8 * (8 - remaining))
    } else {
      tail = 0
      var shift: UInt64 = 0
      while offset < count {
        tail |= UInt64(bytes[offset]) << shift
        shift += 8
        offset += 1
      }
    }
    return mix(step(h, tail))
  }

  /// The state before the first step, for `count` bytes.
  @inline(__always)
  static func start(_ count: Int) -> UInt64 { 0x9E37_79B9_7F4A_7C15 ^ UInt64(count) }

  /// One step: the word mixed into the state by a multiplication, whose high bits the rotation brings
  /// down for the next step.
  @inline(__always)
  static func step(_ state: UInt64, _ word: UInt64) -> UInt64 {
    let product = (state ^ word) &* 0x9FB2_1C65_1E98_DF25
    return (product << 29) | (product >> 35)
  }

  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x &*= 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }
}
