import Foundation

/// Turns any number of lists into one deduplicated set of names, in parallel and in bounded memory.
///
/// Each source is read in blocks of whole lines; blocks are parsed on all cores at once, then merged
/// in source and line order, so the result (and every output rendered from it) is the same for the
/// same input, whatever the timing. Memory holds the name set plus a few blocks in flight.
public struct Compiler: Sendable {
  /// Bytes per block handed to a parser.
  public var blockSize: Int
  /// Blocks parsed at the same time.
  public var parallelism: Int
  /// Whether each name's line and line offset are kept (`CompiledList.origins`, and the `Origins` of
  /// `parse`'s blocks): on for a copy's own block set file, which `why` reads; off by default, so a
  /// plain compile pays nothing for it. Meant for one source compiled alone: each new name's origin is
  /// kept, without saying which source it came from.
  public var recordsOrigins = false

  /// Creates a compiler; by default 1 MiB blocks on every core (smaller blocks than the earlier 4 MiB
  /// shorten the serial start and end of a compile: 5M lines 0.74 -> 0.72 s, peak 274 -> 258 MiB).
  public init(blockSize: Int = 1 << 20, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.blockSize = blockSize
    self.parallelism = max(1, parallelism)
  }

  /// Blocks parsed ahead per core until the first block is merged. The first merge makes the name set,
  /// zeroing a table of millions of slots (64 MB for 5M names) for tens of milliseconds, while the other
  /// cores parse on: with only the usual two blocks a core ahead, they ran out of work and waited
  /// (measured: docs/performance.md, "Compiling").
  static let startWindow = 6

  /// Progress of a compile, reported after each merged block.
  public struct Progress: Sendable, Hashable {
    /// The index of the source being read.
    public var source: Int
    /// Lines read from that source so far.
    public var lines: Int
    /// Names in the set so far.
    public var uniqueNames: Int
    /// Bytes read from that source so far.
    public var bytes: Int
  }

  /// Parses every source, merges the names, adds denied names and removes allowed ones.
  public func compile(
    _ sources: [ListSource], rules: RuleSet = RuleSet(), progress: (Progress) -> Void = { _ in }
  ) async throws(CompileError) -> CompiledList {
    let inputBytes = Self.inputBytes(sources)
    var merger = Merger(sources: sources, capacity: min(max(1 << 12, inputBytes / 40), 1 << 25), bytes: inputBytes)
    merger.recordsOrigins = recordsOrigins
    try await parseBlocks(of: sources) { index, bytesRead in
      merger.reports[index].bytes = bytesRead
    } consume: { parsed, index in
      merger.merge(parsed, source: index, progress: progress)
      return parsed
    }
    var list = CompiledList(names: merger.set, sources: merger.reports, rules: rules)
    if recordsOrigins && merger.originsFit { list.origins = merger.origins }
    list.applyRules()
    return list
  }

  /// Parses the sources' blocks on every core and hands them to `consume` in source and line order.
  ///
  /// `read` gets a source's bytes read so far as each block is read; `consume` may hand a block's names
  /// back for their room to be reused. Throws `.cancelled` when the task is cancelled.
  func parseBlocks(
    of sources: [ListSource], read: (_ source: Int, _ bytesRead: Int) -> Void,
    consume: (ParsedNames, _ source: Int) -> ParsedNames?
  ) async throws(CompileError) {
    let blockSize = blockSize
    let parallelism = parallelism
    let recordsOrigins = recordsOrigins
    do {
      try await withThrowingTaskGroup(of: (Int, ParsedNames, BlockReader.Block).self) { group in
        var ready: [Int: ParsedNames] = [:]
        var owners: [Int: Int] = [:]  // block sequence number -> source index
        var sequence = 0
        var nextToMerge = 0
        // Blocks already parsed and names already merged: their room is reused, not faulted in anew.
        var spareBlocks: [[UInt8]] = []
        var spareNames: [ParsedNames] = []

        func collect(_ done: Int, _ parsed: ParsedNames, _ block: BlockReader.Block) {
          ready[done] = parsed
          if case .lines(let bytes) = block, spareBlocks.count <= parallelism * 2 { spareBlocks.append(bytes) }
          while let next = ready.removeValue(forKey: nextToMerge) {
            let spare = consume(next, owners.removeValue(forKey: nextToMerge)!)
            if let spare, spareNames.count <= parallelism * 2 { spareNames.append(spare) }
            nextToMerge += 1
          }
        }

        for (index, source) in sources.enumerated() {
          var reader = try BlockReader(source.location, blockSize: blockSize)
          var first = true
          while let block = try reader.next(reusing: &spareBlocks) {
            try Task.checkCancellation()
            let number = sequence
            sequence += 1
            owners[number] = index
            let format = source.format
            let isFirst = first
            first = false
            let offset = reader.lastOffset
            let work = Handoff((block, spareNames.popLast()))
            group.addTask {
              let (block, spare) = work.take()!
              var parsed = Self.parse(
                block, format: format, isFirstBlock: isFirst, reusing: spare, recordsOrigins: recordsOrigins)
              parsed.byteOffset = offset
              return (number, parsed, block)
            }
            read(index, reader.bytesRead)
            // Keep every core busy, and at most a few parsed blocks waiting in memory.
            let window = nextToMerge == 0 ? parallelism * Self.startWindow : parallelism * 2
            while sequence - nextToMerge > window, let (done, parsed, block) = try await group.next() {
              collect(done, parsed, block)
            }
          }
        }
        while nextToMerge < sequence, let (done, parsed, block) = try await group.next() {
          collect(done, parsed, block)
        }
      }
    } catch let error as CompileError {
      throw error
    } catch {
      throw .cancelled
    }
    try Task.checkCancellation(or: .cancelled)
  }

  /// Merges parsed blocks into the set, in order, and keeps each source's report.
  struct Merger {
    /// The set, made at the first merge: zeroing a multi-million-name table takes a core for tens of
    /// milliseconds, which the first blocks' parsing then overlaps.
    private var storage: NameSet?
    private let sourceCount: Int
    private let capacity: Int
    private let byteCapacity: Int
    var set: NameSet { storage ?? NameSet(sourceCount: sourceCount) }
    var reports: [SourceReport]
    var lineOffsets: [Int]
    /// Whether to keep each new entry's origin (from blocks parsed with theirs).
    var recordsOrigins = false
    /// Each entry's origin, when `recordsOrigins`.
    var origins = Origins()
    /// False once a block's offsets do not fit (a source over 4 GiB): no origins are kept then.
    var originsFit = true
    /// Names a merge stage handles at a time (8 rather than 16: fewer loads in flight at once, measured
    /// faster; docs/performance.md, "Compiling").
    static let batchSize = 8

    init(sources: [ListSource], capacity: Int, bytes: Int) {
      sourceCount = sources.count + 1
      self.capacity = capacity
      byteCapacity = bytes
      reports = sources.map { SourceReport(name: $0.name, forcedFormat: $0.format) }
      lineOffsets = Array(repeating: 0, count: sources.count)
    }

    /// The names to make room for: as many per byte of input as the first block holds (a list of bare
    /// names has twice as many per byte as a hosts file: sized for the latter, the table grew twice),
    /// or the estimate made from the input's size alone.
    func capacity(after first: ParsedNames) -> Int {
      guard first.sourceBytes >= 4096, first.count > 0, byteCapacity > 0 else { return capacity }
      let estimate = Double(byteCapacity) * Double(first.count) / Double(first.sourceBytes) * 1.1
      return Int(min(max(estimate, 4096), Double(1 << 25)))
    }

    mutating func merge(_ parsed: ParsedNames, source: Int, progress: (Progress) -> Void) {
      var unique = 0
      var set =
        storage.take()
        ?? NameSet(sourceCount: sourceCount, capacity: capacity(after: parsed), byteCapacity: byteCapacity)
      defer { storage = set }
      if recordsOrigins && originsFit && Origins.fits(byteOffset: parsed.byteOffset, of: parsed) {
        // A compile of one source: its new entries are its first sightings, in order.
        var found = Origins()
        found.reserve(parsed.count)
        set.insert(parsed, source: source) { sighting, _, index in
          guard sighting == .new else { return }
          unique += 1
          found.append(hash: parsed.hashes[index], offset: parsed.byteOffset + Int(parsed.lineStarts[index]))
        }
        origins.fingerprints += found.fingerprints
        origins.offsets += found.offsets
        origins.appendCheckpoints(parsed.checkpoints, byteOffset: parsed.byteOffset, lineOffset: lineOffsets[source])
      } else {
        originsFit = originsFit && !recordsOrigins
        set.insert(parsed, source: source) { sighting, _, _ in
          if sighting == .new { unique += 1 }
        }
      }
      reports[source].unique += unique
      reports[source].duplicates += parsed.count - unique
      reports[source].findings.append(parsed.findings, lineOffset: lineOffsets[source])
      lineOffsets[source] += parsed.lineCount
      progress(
        Progress(source: source, lines: lineOffsets[source], uniqueNames: set.count, bytes: reports[source].bytes))
    }
  }

  /// The bytes the sources hold, when known: names take less, so it bounds the name arena, and about
  /// one unique name per 40 bytes sizes the table so it rarely grows.
  static func inputBytes(_ sources: [ListSource]) -> Int {
    sources.reduce(0) { total, source in
      switch source.location {
      case .bytes(let bytes): return total + bytes.count
      case .file(let path):
        // stat(2), not FileManager's attributes: their dictionary of `Any` cost 0.6 ms of a one-line compile.
        var info = stat()
        return total + (stat(path, &info) == 0 ? Int(info.st_size) : 0)
      case .standardInput: return total
      }
    }
  }

  /// Parses one block on whatever core runs the task.
  static func parse(
    _ block: BlockReader.Block, format: InputFormat?, isFirstBlock: Bool, reusing spare: consuming ParsedNames? = nil,
    recordsOrigins: Bool = false
  ) -> ParsedNames {
    var parser = LineParser(format: format, reusing: spare, recordsOrigins: recordsOrigins)
    parser.stripsByteOrderMark = isFirstBlock
    switch block {
    case .lines(let bytes):
      bytes.withUnsafeBufferPointer { parser.parse(buffer: $0) }
    case .longLine(let sample):
      sample.withUnsafeBufferPointer { parser.parse(line: $0, number: 1, tooLong: true) }
    }
    return parser.finish()
  }
}

extension Task where Success == Never, Failure == Never {
  /// Throws `error` if the current task is cancelled.
  static func checkCancellation(or error: CompileError) throws(CompileError) {
    if Task.isCancelled { throw error }
  }
}

extension Compiler {
  /// The engine's version, part of every saved copy's and profile's fingerprint (in the store).
  ///
  /// Changing it recompiles every profile once (nothing is downloaded again): bump it when the engine's
  /// output changes. The block set file's format version is part of it.
  /// 3 (24 Nov): a one-source profile with a deny rule was written without its source bits, so read
  /// back it said its list listed the denied name.
  /// 4 (26 Nov): adblock lists' own `@@||name^` exceptions are read as allow rules (each copy is parsed
  /// again from its saved file).
  /// 5 (27 Nov): local network and special-use names are rejected, `||*.name^` and `.name^|` are read as
  /// subdomains-only blocks, a plain line may hold several names, glued comments end a name everywhere.
  public static let engineVersion = "5"
}
