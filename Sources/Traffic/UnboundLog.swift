import Foundation

/// unbound's query log (`log-queries`, `log-replies`, `log-local-actions`), in its own `logfile`.
///
/// A query is a `CLIENT NAME. TYPE CLASS` line (`info:`, or `query:` with `log-tag-queryreply`); with
/// `log-replies` and without `log-queries`, each reply line (`… RCODE SECONDS FROMCACHE SIZE`) stands for
/// its query. A block is a local action, `ZONE. ZONETYPE CLIENT@PORT NAME. TYPE CLASS`, whose zone type
/// answers for the zone (`always_null`, `always_nxdomain`, `static`, `redirect`…); `transparent`,
/// `typetransparent` and `inform` let the query through. Without `log-local-actions` a block looks like a
/// cache hit, so such a log says nothing of blocks (`tellsBlocks`).
public struct UnboundLog: QueryLogParser {
  private var sawQueries = false
  private var sawLocalActions = false

  public init() {}

  public var keepsClients = true

  public var tellsBlocks: Bool { sawLocalActions }

  static let blockingZoneTypes: Set<String> = [
    "always_null", "always_nxdomain", "always_refuse", "always_deny", "always_nodata", "deny", "refuse", "static",
    "redirect", "inform_deny", "inform_redirect",
  ]

  /// Whether a token is an IPv4 or IPv6 address (digits, hex letters, dots and colons).
  static func isAddress(_ scan: LineScanner, _ token: Range<Int>) -> Bool {
    scan.bytes[token].contains { $0 == 0x2E || $0 == 0x3A }
      && scan.bytes[token].allSatisfy {
        ($0 >= 0x30 && $0 <= 0x3A) || $0 == 0x2E || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66)
      }
  }

  public mutating func parse(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, file: String, clock: inout LogClock, findings: inout LogFindings,
    emit: (LogEvent) -> Void
  ) {
    let stamp: (Date, Int)? =
      switch line.first {
      case 0x5B: clock.epoch(line)
      case let byte? where byte >= 0x30 && byte <= 0x39: clock.iso(line)
      default: clock.syslog(line)
      }
    guard let (time, start) = stamp else {
      findings.skip("no timestamp", file: file, line: number, text: line)
      return
    }
    var scan = LineScanner(line, from: start)
    var tag = scan.next()
    if let first = tag, !scan.hasPrefix(first, "unbound") { tag = scan.next() }  // a host name in syslog
    guard let tag, let level = scan.next(), scan.bytes[level.upperBound - 1] == 0x3A else {
      findings.skip("no program name", file: file, line: number, text: line)
      return
    }
    guard scan.hasPrefix(tag, "unbound[") else {
      findings.otherLines += 1
      return
    }
    let tokens = scan.rest(limit: 10)
    let informs = scan.equals(level, "info:") || scan.equals(level, "query:") || scan.equals(level, "reply:")
    guard informs, !tokens.isEmpty else {
      findings.otherLines += 1
      return
    }
    switch tokens.count {
    case 4 where scan.equals(tokens[3], "IN") || scan.equals(tokens[3], "CH"):
      sawQueries = true
      guard let name = scan.validName(tokens[1], file: file, line: number, findings: &findings) else { return }
      emit(
        .query(time: time, name: name, type: scan.text(tokens[2]), client: keepsClients ? scan.text(tokens[0]) : nil))
    case 6 where scan.contains(tokens[2], 0x40):
      sawLocalActions = true
      let address = tokens[2]
      let at = scan.bytes[address].lastIndex(of: 0x40) ?? address.upperBound
      if Self.blockingZoneTypes.contains(scan.text(tokens[1])) {
        guard let name = scan.validName(tokens[3], file: file, line: number, findings: &findings) else { return }
        emit(.blocked(time: time, name: name, client: keepsClients ? scan.text(address.lowerBound..<at) : nil))
      }
    case 8 where scan.equals(tokens[3], "IN") || scan.equals(tokens[3], "CH"):
      // A reply: the query itself when queries are not logged.
      if !sawQueries {
        guard let name = scan.validName(tokens[1], file: file, line: number, findings: &findings) else { return }
        emit(
          .query(time: time, name: name, type: scan.text(tokens[2]), client: keepsClients ? scan.text(tokens[0]) : nil))
      }
    case 1...3, 5, 7:
      // A client's address and a name, cut short (a `where` here would bind to 7 alone).
      if Self.isAddress(scan, tokens[0]) && (tokens.count < 2 || scan.bytes[tokens[1].upperBound - 1] == 0x2E) {
        findings.skip("truncated query line", file: file, line: number, text: line)
      } else {
        findings.otherLines += 1
      }
    default:
      findings.otherLines += 1
    }
  }
}
