import Foundation
import Traffic

/// Runs `parser` over `text`'s lines, returning the events and what was skipped.
func events(
  _ text: String, parser: some QueryLogParser, now: Date = Date(timeIntervalSince1970: 1_795_800_000)
) -> (events: [LogEvent], findings: LogFindings, tellsBlocks: Bool) {
  var parser = parser
  var clock = LogClock(now: now, timeZone: TimeZone(identifier: "UTC")!)
  var findings = LogFindings()
  var found: [LogEvent] = []
  for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
    var bytes = Array(line.utf8)
    bytes.withUnsafeMutableBufferPointer { buffer in
      parser.parse(
        UnsafeBufferPointer(buffer), number: index + 1, file: "test.log", clock: &clock, findings: &findings
      ) { found.append($0) }
    }
  }
  return (found, findings, parser.tellsBlocks)
}

/// The names of the queries and of the blocks, in order.
func summary(_ events: [LogEvent]) -> [String] {
  events.map { event in
    switch event {
    case .query(_, let name, let type, let client): "query \(name) \(type) \(client ?? "-")"
    case .blocked(_, let name, let client, let via):
      "blocked \(name) \(client ?? "-")" + (via.map { " via \($0)" } ?? "")
    }
  }
}
