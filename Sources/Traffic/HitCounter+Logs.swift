import Foundation

extension HitCounter {
  /// Reads `source`'s file and its rotated copies (oldest first, gzip'd ones too), or its entries in the
  /// journal from `since`, and counts every event; returns the files read. `now` tells the year of syslog
  /// times, which have none.
  public mutating func read(_ source: LogSource, since: Date? = nil, now: Date = Date()) throws(TrafficError)
    -> [String]
  {
    if source.isJournal { return try readJournal(source, since: since, now: now) }
    let files = LogFiles.rotation(of: source.path)
    guard !files.isEmpty else { throw .unreadable(path: source.path, reason: "no such file") }
    var parser = source.kind.parser()
    parser.keepsClients = byClient
    var clock = LogClock(now: now)
    for file in files {
      var reader = try LogReader(path: file)
      var found = LogFindings()
      var events = 0
      do {
        try reader.forEachLine(findings: &found) { line, number, found in
          parser.parse(line, number: number, file: file, clock: &clock, findings: &found) {
            events += 1
            count($0)
          }
        }
      } catch let error as TrafficError {
        throw error
      } catch {
        throw .unreadable(path: file, reason: error.localizedDescription)
      }
      if events == 0 && found.lines > 0 {
        found.unrecognizedFiles.append(
          LogFindings.UnrecognizedFile(
            file: file, kind: source.kind.rawValue, looksLike: Self.kind(of: file, other: source.kind)?.rawValue))
      }
      findings.add(found)
    }
    if !parser.tellsBlocks { serverTellsBlocks = false }
    return files
  }

  /// Reads `source`'s entries in the journal from `since` and counts every event.
  mutating func readJournal(_ source: LogSource, since: Date?, now: Date) throws(TrafficError) -> [String] {
    var parser = source.kind.parser()
    parser.keepsClients = byClient
    var clock = LogClock(now: now)
    var found = LogFindings()
    let name = source.description + (source.journalFile.map { " (\($0))" } ?? "")
    try Journal.read(source, since: since) { line, number in
      found.lines += 1
      parser.parse(line, number: number, file: name, clock: &clock, findings: &found) { count($0) }
    }
    findings.add(found)
    if !parser.tellsBlocks { serverTellsBlocks = false }
    return [name]
  }

  /// The other server whose parser finds queries in the first thousand lines of `file`, if one does.
  static func kind(of file: String, other than: QueryLogFormat) -> QueryLogFormat? {
    for kind in QueryLogFormat.allCases where kind != than {
      guard var reader = try? LogReader(path: file) else { return nil }
      var parser = kind.parser()
      var clock = LogClock(now: Date())
      var findings = LogFindings()
      var events = 0
      // Reading stops at the thousandth line (the error only ends the loop).
      try? reader.forEachLine(findings: &findings) { line, number, found in
        guard number <= 1000 else { throw CancellationError() }
        parser.parse(line, number: number, file: file, clock: &clock, findings: &found) { _ in events += 1 }
      }
      if events > 0 { return kind }
    }
    return nil
  }
}
