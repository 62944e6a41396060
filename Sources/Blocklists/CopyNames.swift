import Files

/// One source's distinct names in first-seen order, without a lookup table: what compiling the source
/// alone gives, as `Compiler.Merging.add(_:name:)` collects it while inserting the source into a
/// profile's set. It is written as the copy's lean block set file, which reads back as
/// `Compiler.compile([source])` written lean does: the same names, order and report.
public struct CopyNames: Sendable {
  /// The names, one after another.
  var bytes: [UInt8] = []
  /// Where each name ends in `bytes`.
  var ends: [UInt32] = []
  /// Where each name came from (empty when the source was parsed without them).
  public internal(set) var origins = Origins()
  /// What the source gave, its unique and duplicate counts those of the source alone.
  public internal(set) var report: SourceReport

  init(report: SourceReport) {
    self.report = report
  }

  /// The distinct names.
  public var count: Int { ends.count }

  /// The names in order (for tests and small lists).
  public var names: [String] {
    var start = 0
    return ends.map { end in
      defer { start = Int(end) }
      return String(decoding: bytes[start..<Int(end)], as: UTF8.self)
    }
  }

  /// Writes the list to `path` atomically as a lean block set file under `fingerprint`; with `.deferred`
  /// durability the caller flushes it.
  public func writeArchive(
    to path: String, fingerprint: String, durability: StagedFile.Durability = .immediate
  ) throws(CompileError) {
    let parts = NameSet.Parts(
      bytes: bytes, ends: ends, slots: [], sourceBits: [], removedBits: [], wordsPerEntry: 1, removedCount: 0)
    try CompiledList.writeArchive(
      parts, origins: origins,
      metadata: CompiledList.Metadata(fingerprint: fingerprint, sources: [report], ruleReports: []),
      to: path, durability: durability)
  }
}

extension CopyNames {
  /// Adds a name.
  @inline(__always)
  mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: name)
    ends.append(UInt32(bytes.count))
  }
}
