extension CompiledList {
  /// Where each section of a block set file lies, read from its header and checked against the file's
  /// size: the one reader of the format's layout. Reading a list whole (`readArchive`), reading its parts
  /// for merging (`readParts`) and mapping it for lookups (`BlockSetFile`) all open the file through it.
  struct Layout {
    /// The file's sections after the header, in order.
    enum Section: Int, CaseIterable {
      case bytes, ends, slots, sourceBits, removedBits, fingerprints, offsets, checkpoints
    }

    /// The fingerprint, the sources' and the rules' reports.
    let metadata: Metadata
    /// The nine counts of the header (see the format's description in `CompiledList+Archive.swift`).
    let counts: [Int]
    /// Each section's first byte.
    private let starts: [Int]

    /// The layout of the file in `raw`, if it is a block set file of this version written under
    /// `fingerprint` whose sections fill it exactly; nil otherwise.
    init?(_ raw: UnsafeRawBufferPointer, fingerprint: String) {
      var reader = Reader(raw)
      guard let metadata = try? reader.metadata(), metadata.fingerprint == fingerprint,
        let counts = try? (0..<9).map({ _ in try reader.integer() }),
        counts[7] == 0 || counts[7] == counts[1], counts[8] % 2 == 0,
        let starts = try? [
          reader.skip(counts[0], UInt8.self), reader.skip(counts[1], UInt32.self), reader.skip(counts[2], UInt64.self),
          reader.skip(counts[3], UInt64.self), reader.skip(counts[4], UInt64.self), reader.skip(counts[7], UInt32.self),
          reader.skip(counts[7], UInt32.self), reader.skip(counts[8], UInt64.self),
        ],
        reader.isAtEnd
      else { return nil }
      self.metadata = metadata
      self.counts = counts
      self.starts = starts
    }

    /// The bytes of every name together.
    var nameBytes: Int { counts[0] }
    /// The number of entries.
    var entries: Int { counts[1] }
    /// The words of source bits each entry has.
    var wordsPerEntry: Int { counts[5] }
    /// How many entries are removed.
    var removedCount: Int { counts[6] }
    /// Whether each entry's origin (hash and line) is kept: a copy's own file.
    var hasOrigins: Bool { counts[7] > 0 }
    /// How many checkpoints (offset and line pairs) there are.
    var checkpointCount: Int { counts[8] / 2 }

    /// Where `section` starts in the file.
    func start(of section: Section) -> Int { starts[section.rawValue] }

    /// The number of values `section` holds.
    func count(of section: Section) -> Int {
      switch section {
      case .bytes: counts[0]
      case .ends: counts[1]
      case .slots: counts[2]
      case .sourceBits: counts[3]
      case .removedBits: counts[4]
      case .fingerprints, .offsets: counts[7]
      case .checkpoints: counts[8]
      }
    }

    /// A reader positioned at the start of `section`.
    func reader(_ raw: UnsafeRawBufferPointer, at section: Section) -> Reader {
      var reader = Reader(raw)
      reader.offset = start(of: section)
      return reader
    }
  }
}
