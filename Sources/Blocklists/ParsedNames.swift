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

  /// The number of names.
  public var count: Int { ends.count }

  /// Empties it for another block, keeping the room it has.
  mutating func clear() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    hashes.removeAll(keepingCapacity: true)
    findings = Findings()
    lineCount = 0
  }

  mutating func reserve(bytes: Int) {
    self.bytes.reserveCapacity(bytes / 2)
    ends.reserveCapacity(bytes / 24)
    hashes.reserveCapacity(bytes / 24)
  }

  mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: name)
    ends.append(UInt32(bytes.count))
    hashes.append(NameHash.hash(name))
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
public enum NameHash {
  /// The hash of some bytes.
  public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    guard let base = bytes.baseAddress else { return mix(h) }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    while offset + 8 <= bytes.count {
      h = mix(h ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return mix(h ^ tail)
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
