extension Compiler {
  /// Merges lists compiled one source each (read back from their block set files) into one, then adds
  /// denied names and removes allowed ones: the same list, in the same order and with the same reports,
  /// as compiling those sources' copies together, without parsing a line again.
  ///
  /// Lists are added one at a time, so only the merged set and the list being added are in memory.
  public struct Merging: Sendable {
    private var set: NameSet
    private var reports: [SourceReport] = []
    private let sourceCount: Int

    /// Prepares to merge `sourceCount` lists of about `capacity` names in all, holding at most about
    /// `byteCapacity` bytes of names (the copies' sizes bound it).
    ///
    /// Room for the bytes is reserved, not touched, so a generous bound costs no memory; one too small
    /// makes the name bytes move to a block twice as large, both held at once (on 4M names of 31 bytes
    /// against the 24 a name assumed by default, 125 MB more at the peak).
    public init(sourceCount: Int, capacity: Int = 1 << 12, byteCapacity: Int? = nil) {
      self.sourceCount = sourceCount
      set = NameSet(sourceCount: sourceCount + 1, capacity: max(1 << 12, capacity), byteCapacity: byteCapacity)
    }

    /// Adds the next source's list (compiled alone, without rules) under `name`.
    ///
    /// Its first source report is kept, with its unique and duplicate counts recounted against the
    /// sources added before it.
    public mutating func add(_ list: CompiledList, name: String) {
      add(list.names.parts(keepingSourceBits: false), report: list.sources.first, name: name)
    }

    /// Adds the next source's list from its block set file (written under `fingerprint`) without
    /// building its lookup table; false, adding nothing, when the file is missing, stale or damaged.
    public mutating func add(archiveAt path: String, fingerprint: String, name: String) -> Bool {
      guard let (metadata, parts) = CompiledList.readParts(at: path, fingerprint: fingerprint) else { return false }
      add(parts, report: metadata.sources.first, name: name)
      return true
    }

    /// Adds the next source's names as parsed (repeats included), inserting each once; returns the
    /// source's own distinct names, as compiling it alone gives them, for its lean block set file.
    ///
    /// The profile's report of the source counts as unique the names no source before it had; the
    /// returned one, the source's distinct names.
    public mutating func add(_ parsed: consuming ParsedList, name: String) -> CopyNames {
      precondition(reports.count < sourceCount, "more lists than the merge was prepared for")
      let index = reports.count
      var own = CopyNames(report: parsed.report)
      own.report.name = name
      own.bytes.reserveCapacity(parsed.nameBytes)
      own.ends.reserveCapacity(parsed.names)
      // Origins for `why`, when every block kept its line starts and the offsets fit in 32 bits.
      let recordsOrigins = parsed.blocks.allSatisfy { Origins.fits(byteOffset: $0.byteOffset, of: $0) }
      if recordsOrigins { own.origins.reserve(parsed.names) }
      var unique = 0
      // The block's names that are the source's first sightings, by index: their origins are added
      // after the block, in one tight loop (three appends a name inside the insert cost a tenth of it).
      var picks: [UInt32] = []
      for (number, block) in parsed.blocks.enumerated() {
        picks.removeAll(keepingCapacity: true)
        set.insert(block, source: index) { sighting, name, entry in
          switch sighting {
          case .new:
            unique += 1
          case .newToSource:
            break
          case .repeated:
            return
          }
          own.append(name)
          if recordsOrigins { picks.append(UInt32(truncatingIfNeeded: entry)) }
        }
        if recordsOrigins {
          own.origins.append(picks, of: block)
          own.origins.appendCheckpoints(
            block.checkpoints, byteOffset: block.byteOffset, lineOffset: parsed.lineOffsets[number])
        }
      }
      own.report.unique = own.count
      own.report.duplicates = own.report.findings.names - own.count
      var report = own.report
      report.unique = unique
      report.duplicates = report.findings.names - unique
      reports.append(report)
      return own
    }

    private mutating func add(_ part: NameSet.Parts, report first: SourceReport?, name: String) {
      precondition(reports.count < sourceCount, "more lists than the merge was prepared for")
      let index = reports.count
      var report = first ?? SourceReport(name: name, forcedFormat: nil)
      report.name = name
      var unique = 0
      func isRemoved(_ entry: Int) -> Bool {
        let word = entry >> 6
        return word < part.removedBits.count && part.removedBits[word] & (1 << UInt64(entry & 63)) != 0
      }
      part.bytes.withUnsafeBufferPointer { bytes in
        part.ends.withUnsafeBufferPointer { ends in
          // In batches of 16 and four stages, as `NameSet.insert(_:source:_:)` does: batch k + 3 is hashed and its
          // slots prefetched, the entries of k + 2 and the names of k + 1 are prefetched, k is inserted.
          // The hashes of the four batches in flight are kept in a ring.
          let size = Compiler.Merger.batchSize
          var ring = [UInt64](repeating: 0, count: 4 * size)
          ring.withUnsafeMutableBufferPointer { ring in
            let count = ends.count
            func range(_ number: Int) -> Range<Int> {
              min(number * size, count)..<min(number * size + size, count)
            }
            func hashes(_ number: Int) -> UnsafeBufferPointer<UInt64> {
              let slot = (number % 4) * size
              return UnsafeBufferPointer(rebasing: ring[slot..<(slot + range(number).count)])
            }
            func hash(_ number: Int) {
              let slot = (number % 4) * size
              let entries = range(number)
              var start = entries.lowerBound == 0 ? 0 : Int(ends[entries.lowerBound - 1])
              for entry in entries {
                let stop = Int(ends[entry])
                ring[slot + entry - entries.lowerBound] = NameHash.hash(
                  UnsafeBufferPointer(rebasing: bytes[start..<stop]))
                start = stop
              }
            }
            for number in 0..<3 { hash(number) }
            for number in -3..<0 { set.prefetch(ahead: number, hashes) }
            var number = 0
            while number * size < count {
              hash(number + 3)
              set.prefetch(ahead: number, hashes)
              let entries = range(number)
              let batch = hashes(number)
              var start = entries.lowerBound == 0 ? 0 : Int(ends[entries.lowerBound - 1])
              for entry in entries {
                let stop = Int(ends[entry])
                if !isRemoved(entry),
                  set.insert(
                    UnsafeBufferPointer(rebasing: bytes[start..<stop]), hash: batch[entry - entries.lowerBound],
                    source: index)
                {
                  unique += 1
                }
                start = stop
              }
              number += 1
            }
          }
        }
      }
      report.unique = unique
      report.duplicates = report.findings.names - unique
      reports.append(report)
    }

    /// The merged list with `rules` applied.
    public consuming func finish(rules: RuleSet = RuleSet()) -> CompiledList {
      var list = CompiledList(names: set, sources: reports, rules: rules)
      list.applyRules()
      return list
    }
  }
}
