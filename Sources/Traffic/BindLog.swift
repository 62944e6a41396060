import Foundation

/// BIND 9's query log (`querylog yes`, category `queries`) and RPZ log (category `rpz`), in one file or two.
///
/// A query is `client @0x… CLIENT#PORT (QNAME): query: NAME CLASS TYPE FLAGS (SERVER)`. A block is
/// `client … (QNAME): rpz TRIGGER POLICY rewrite NAME/TYPE/CLASS via NAME.ZONE` with any policy but
/// `PASSTHRU`. NAME may be a CNAME's target (BIND rewrites chains); the block is counted for QNAME, the
/// name the client asked. Lines have BIND's time (`print-time yes`, `iso8601`, `iso8601-utc`) or none.
public struct BindLog: QueryLogParser {
  public init() {}

  public var keepsClients = true

  /// Whether an RPZ line was read: BIND logs its rewrites only in the `rpz` category, so a log without
  /// any cannot tell a block from an answer (a query log alone).
  public var tellsBlocks: Bool { sawRPZ }

  private var sawRPZ = false

  public mutating func parse(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, file: String, clock: inout LogClock, findings: inout LogFindings,
    emit: (LogEvent) -> Void
  ) {
    var time: Date?
    var start = 0
    if line.count > 2, line[2] == 0x2D, let (date, end) = clock.bind(line) {
      (time, start) = (date, end)
    } else if line.count > 4, line[4] == 0x2D, let (date, end) = clock.iso(line) {
      (time, start) = (date, end)
    }
    var scan = LineScanner(line, from: start)
    // Optional `category:` and `severity:` words, then `client`.
    var word = scan.next()
    while let current = word, !scan.equals(current, "client"), scan.bytes[current.upperBound - 1] == 0x3A {
      word = scan.next()
    }
    guard let client = word, scan.equals(client, "client") else {
      if word == nil || time == nil, !line.isEmpty {
        findings.skip("not a BIND log line", file: file, line: number, text: line)
      } else {
        findings.otherLines += 1
      }
      return
    }
    var tokens = scan.rest(limit: 12)
    if let first = tokens.first, scan.hasPrefix(first, "@0x") { tokens.removeFirst() }
    guard tokens.count >= 4, let hash = scan.bytes[tokens[0]].lastIndex(of: 0x23) else {
      findings.skip("truncated client line", file: file, line: number, text: line)
      return
    }
    let address = keepsClients ? scan.text(tokens[0].lowerBound..<hash) : nil
    let asked = tokens[1]
    if scan.equals(tokens[2], "query:") {
      guard tokens.count >= 6 else {
        findings.skip("truncated query line", file: file, line: number, text: line)
        return
      }
      guard let name = scan.validName(tokens[3], file: file, line: number, findings: &findings) else { return }
      emit(.query(time: time, name: name, type: scan.text(tokens[5]), client: address))
    } else if scan.equals(tokens[2], "rpz") {
      sawRPZ = true
      guard tokens.count >= 6, scan.equals(tokens[5], "rewrite"), asked.count > 3 else {
        findings.skip("truncated rpz line", file: file, line: number, text: line)
        return
      }
      guard !scan.equals(tokens[4], "PASSTHRU") else {
        findings.otherLines += 1
        return
      }
      // `(cname.website):` → cname.website
      let range = asked.lowerBound + 1..<asked.upperBound - 2
      guard let name = scan.validName(range, file: file, line: number, findings: &findings) else { return }
      // `rewrite target.website/A/IN`: the name the policy matched, a CNAME's target when BIND followed
      // the chain of the name asked.
      var via: String?
      if tokens.count >= 7, let slash = scan.bytes[tokens[6]].firstIndex(of: 0x2F) {
        let matched = scan.name(tokens[6].lowerBound..<slash)
        if matched != name { via = matched }
      }
      emit(.blocked(time: time, name: name, client: address, via: via))
    } else {
      findings.otherLines += 1
    }
  }
}
