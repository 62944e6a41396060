import Files
import Foundation

/// A compiled block set as a file: the names in first-seen order with their lookup table, which sources
/// list each one, what each source gave and what each rule did, under the fingerprint of what it was
/// compiled from. Reading it back is a few bulk copies out of a memory-mapped file, no parsing and no
/// hashing, so `apply`, subscription lists and "which list blocks this?" skip the compile.
///
/// Layout (little-endian, every section 8-byte aligned):
/// - 8 bytes `SHBLKSET`, a `UInt32` format version, 4 bytes zero;
/// - a `UInt64` length and that many bytes of JSON metadata (fingerprint, source and rule reports), padded;
/// - nine `UInt64`s: name bytes, entries, table slots, source words, removed words, words per entry,
///   removed count, origins (0 or the entries), checkpoint words;
/// - the name bytes (padded), the entries' end offsets (`UInt32`, padded), the table, the source bits,
///   the removed bits; then, when there are origins (a copy's own file), each entry's hash's top 32
///   bits and its line's offset (`UInt32` each), and the checkpoints (`UInt64` offset and line pairs):
///   see `Origins`, `BlockSetFile`.
///
/// A file of another version, a different fingerprint, or with parts that do not fit together reads
/// as nil: the caller compiles again. Files are written atomically (`OutputFile`).
///
/// A list may be written lean (`withLookupTable: false`): without the table (and, for one source, the
/// source bits, all ones), a third to a half smaller. Merging reads only names, so it needs neither;
/// `readArchive` rebuilds them (a hash a name: 12 ms for 415,768 names).
extension CompiledList {
  /// The first eight bytes of the file.
  static let archiveMagic = Array("SHBLKSET".utf8)
  /// The format's version: bump it when the layout or the meaning of a part changes (2: `NameHash`
  /// changed, and with it the order of the lookup table; 3: origins, for `why`).
  public static let archiveVersion: UInt32 = 3

  struct Metadata: Codable {
    var fingerprint: String
    var sources: [SourceReport]
    var ruleReports: [RuleReport]
  }

  /// Writes the list to `path` atomically, under `fingerprint`; lean (no lookup table, no source bits)
  /// when asked and the list has one source. With `.deferred` durability the caller flushes the file.
  public func writeArchive(
    to path: String, fingerprint: String, withLookupTable: Bool = true,
    durability: StagedFile.Durability = .immediate
  ) throws(CompileError) {
    // Source bits are left out only when every name comes from source 0: a denied name's bit (the rule
    // source) must survive, or a one-source profile read back would say its list lists the denied name.
    let lean = !withLookupTable && names.onlySourceZero && names.wordsPerEntry == 1
    var parts = names.parts(keepingSourceBits: !lean)
    if !withLookupTable {
      // The reader rebuilds the table from the names (a hash each); one source's bits are all ones.
      parts.slots = []
      if lean { parts.sourceBits = [] }
    }
    try Self.writeArchive(
      parts, origins: origins.count == parts.ends.count ? origins : Origins(),
      metadata: Metadata(fingerprint: fingerprint, sources: sources, ruleReports: ruleReports), to: path,
      durability: durability)
  }

  /// Writes a set's parts and metadata to `path` atomically, in the layout above.
  static func writeArchive(
    _ parts: NameSet.Parts, origins: Origins = Origins(), metadata: Metadata, to path: String,
    durability: StagedFile.Durability
  ) throws(CompileError) {
    precondition(origins.count == 0 || origins.count == parts.ends.count, "origins for other entries")
    let encoded: [UInt8]
    do {
      encoded = Array(try JSONCoding.encode(metadata))
    } catch {
      throw .unwritable(path: path, detail: "the block set's metadata could not be encoded: \(error)")
    }
    try OutputFile.write(path, mode: 0o644, durability: durability) { (sink) throws(CompileError) in
      var header = Self.archiveMagic
      Self.append(Self.archiveVersion, to: &header)
      Self.append(UInt32(0), to: &header)
      Self.append(UInt64(encoded.count), to: &header)
      try sink.write(header)
      try sink.write(encoded)
      try Self.pad(encoded.count, in: &sink)
      var counts: [UInt8] = []
      for count in [
        parts.bytes.count, parts.ends.count, parts.slots.count, parts.sourceBits.count, parts.removedBits.count,
        parts.wordsPerEntry, parts.removedCount, origins.count, origins.count == 0 ? 0 : origins.checkpoints.count,
      ] {
        Self.append(UInt64(count), to: &counts)
      }
      try sink.write(counts)
      try Self.write(parts.bytes, to: &sink)
      try Self.write(parts.ends, to: &sink)
      try Self.write(parts.slots, to: &sink)
      try Self.write(parts.sourceBits, to: &sink)
      try Self.write(parts.removedBits, to: &sink)
      try Self.write(origins.fingerprints, to: &sink)
      try Self.write(origins.offsets, to: &sink)
      if origins.count > 0 { try Self.write(origins.checkpoints, to: &sink) }
    }
  }

  /// The fingerprint a file was written under, reading only its header; nil when it is not a block set
  /// file of this version.
  public static func archiveFingerprint(at path: String) -> String? {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
    return data.withUnsafeBytes { raw in
      var reader = Reader(raw)
      return (try? reader.metadata())?.fingerprint
    }
  }

  /// Reads the list written at `path`, if it was written under `fingerprint` by this format version.
  ///
  /// `rules` are the rules the fingerprint covers (they are not stored again).
  public static func readArchive(at path: String, fingerprint: String, rules: RuleSet) -> CompiledList? {
    guard let (metadata, read) = readParts(at: path, fingerprint: fingerprint) else { return nil }
    var parts = read
    if parts.slots.isEmpty {  // a lean file: rebuild what it left out
      if parts.sourceBits.isEmpty { parts.sourceBits = Array(repeating: 1, count: parts.ends.count) }
      parts.slots = NameSet.table(bytes: parts.bytes, ends: parts.ends)
    }
    guard let names = NameSet(parts: parts) else { return nil }
    var list = CompiledList(names: names, sources: metadata.sources, rules: rules)
    list.ruleReports = metadata.ruleReports
    return list
  }

  /// The metadata and the set's parts as written (a lean file's table and source bits empty).
  static func readParts(at path: String, fingerprint: String) -> (Metadata, NameSet.Parts)? {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
    return data.withUnsafeBytes { raw -> (Metadata, NameSet.Parts)? in
      guard let layout = Layout(raw, fingerprint: fingerprint) else { return nil }
      var reader = layout.reader(raw, at: .bytes)
      guard let bytes: [UInt8] = try? reader.array(layout.count(of: .bytes)),
        let ends: [UInt32] = try? reader.array(layout.count(of: .ends)),
        let slots: [UInt64] = try? reader.array(layout.count(of: .slots)),
        let sourceBits: [UInt64] = try? reader.array(layout.count(of: .sourceBits)),
        let removedBits: [UInt64] = try? reader.array(layout.count(of: .removedBits))
      else { return nil }
      let metadata = layout.metadata
      let parts = NameSet.Parts(
        bytes: bytes, ends: ends, slots: slots, sourceBits: sourceBits, removedBits: removedBits,
        wordsPerEntry: layout.wordsPerEntry, removedCount: layout.removedCount)
      // The names must fit together even where the table is left out (merging reads only them).
      guard parts.ends.last.map({ Int($0) == parts.bytes.count }) ?? parts.bytes.isEmpty,
        zip(parts.ends, parts.ends.dropFirst()).allSatisfy({ $0 <= $1 }),
        parts.removedBits.count <= (parts.ends.count + 63) / 64, parts.removedCount <= parts.ends.count
      else { return nil }
      return (metadata, parts)
    }
  }

  // MARK: Writing

  private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  private static func pad(_ count: Int, in sink: inout ByteSink) throws(CompileError) {
    let padding = (8 - count % 8) % 8
    if padding > 0 { try sink.write([UInt8](repeating: 0, count: padding)) }
  }

  private static func write<T: FixedWidthInteger>(_ values: [T], to sink: inout ByteSink) throws(CompileError) {
    // Stored little-endian, which is this machine's order on every platform Swift runs Linux on.
    try sink.write(contentsOf: values)
    try pad(values.count * MemoryLayout<T>.size, in: &sink)
  }

  // MARK: Reading

  /// Reads a file's sections in order; every read checks the bounds.
  struct Reader {
    struct Damaged: Error {}

    let raw: UnsafeRawBufferPointer
    var offset = 0

    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

    var isAtEnd: Bool { offset == raw.count }

    mutating func metadata() throws -> Metadata {
      guard raw.count >= 24, Array(raw[0..<8]) == CompiledList.archiveMagic else { throw Damaged() }
      offset = 8
      guard try UInt32(truncatingIfNeeded: value(UInt32.self)) == CompiledList.archiveVersion else { throw Damaged() }
      _ = try value(UInt32.self)
      let length = try integer()
      guard length <= raw.count - offset else { throw Damaged() }
      let metadata = try JSONCoding.decode(
        Metadata.self, from: Data(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length])))
      offset += length
      offset += (8 - length % 8) % 8
      return metadata
    }

    mutating func integer() throws -> Int {
      let value = try value(UInt64.self)
      guard value <= UInt64(Int32.max) * 8 else { throw Damaged() }
      return Int(value)
    }

    mutating func value<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
      let size = MemoryLayout<T>.size
      guard offset + size <= raw.count else { throw Damaged() }
      let value = raw.loadUnaligned(fromByteOffset: offset, as: T.self)
      offset += size
      return T(littleEndian: value)
    }

    /// Steps over `count` values, returning where they start.
    @discardableResult
    mutating func skip<T: FixedWidthInteger>(_ count: Int, _ type: T.Type) throws -> Int {
      let size = count * MemoryLayout<T>.size
      guard size <= raw.count - offset else { throw Damaged() }
      let start = offset
      offset += size + (8 - size % 8) % 8
      guard offset <= raw.count else { throw Damaged() }
      return start
    }

    mutating func array<T: FixedWidthInteger>(_ count: Int) throws -> [T] {
      let size = count * MemoryLayout<T>.size
      guard size <= raw.count - offset else { throw Damaged() }
      let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + size]))
        initialized = count
      }
      offset += size + (8 - size % 8) % 8
      guard offset <= raw.count else { throw Damaged() }
      return values
    }
  }
}
