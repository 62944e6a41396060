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

    /// Prepares to merge `sourceCount` lists of about `capacity` names in all.
    public init(sourceCount: Int, capacity: Int = 1 << 12) {
      self.sourceCount = sourceCount
      set = NameSet(sourceCount: sourceCount + 1, capacity: max(1 << 12, capacity))
    }

    /// Adds the next source's list (compiled alone, without rules) under `name`.
    ///
    /// Its first source report is kept, with its unique and duplicate counts recounted against the
    /// sources added before it.
    public mutating func add(_ list: CompiledList, name: String) {
      precondition(reports.count < sourceCount, "more lists than the merge was prepared for")
      let index = reports.count
      var report = list.sources.first ?? SourceReport(name: name, forcedFormat: nil)
      report.name = name
      var unique = 0
      let part = list.names
      for entry in 0..<part.entryCount where !part.isRemoved(entry) {
        part.withName(entry) { name in
          if set.insert(name, hash: NameHash.hash(name), source: index) { unique += 1 }
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
