import Foundation

extension HitCounter {
  /// Reads `source`'s file and its rotated copies (oldest first, gzip'd ones too) and counts every
  /// event; returns the files read. `now` tells the year of syslog times, which have none.
  public mutating func read(_ source: LogSource, now: Date = Date()) throws(TrafficError) -> [String] {
    let files = LogFiles.rotation(of: source.path)
    guard !files.isEmpty else { throw .unreadable(path: source.path, reason: "no such file") }
    var parser = source.kind.parser()
    parser.keepsClients = byClient
    var clock = LogClock(now: now)
    for file in files {
      var reader = try LogReader(path: file)
      var found = LogFindings()
      do {
        try reader.forEachLine(findings: &found) { line, number, found in
          parser.parse(line, number: number, file: file, clock: &clock, findings: &found) { count($0) }
        }
      } catch let error as TrafficError {
        throw error
      } catch {
        throw .unreadable(path: file, reason: error.localizedDescription)
      }
      findings.add(found)
    }
    if !parser.tellsBlocks { serverTellsBlocks = false }
    return files
  }
}
