extension Compiler {
  /// Parses one source on every core without merging its names: they stay in line order, repeats
  /// included, for `Compiler.Merging.add(_:name:)` to insert once into a profile's set.
  ///
  /// `progress` is called after each block; its `uniqueNames` counts the names read so far, repeats
  /// included (there is no set to count distinct ones in).
  public func parse(_ source: ListSource, progress: (Progress) -> Void = { _ in }) async throws(CompileError)
    -> ParsedList
  {
    var list = ParsedList(report: SourceReport(name: source.name, forcedFormat: source.format))
    try await parseBlocks(of: [source]) { _, bytesRead in
      list.report.bytes = bytesRead
    } consume: { parsed, _ in
      list.append(parsed)
      progress(Progress(source: 0, lines: list.lines, uniqueNames: list.names, bytes: list.report.bytes))
      return nil
    }
    return list
  }
}
