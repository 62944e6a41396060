import Foundation

/// dnsmasq's query log (`log-queries`, `log-queries=extra`), in its own file (`log-facility`) or in syslog.
///
/// A query is its `query[TYPE] NAME from CLIENT` line. A block is an answer dnsmasq made up itself:
/// `config NAME is NXDOMAIN|NODATA|0.0.0.0|::` (`address=`, `local=`, `server=/name/`) or
/// `/path/of/hosts NAME is 0.0.0.0|::` (`addn-hosts`). Such a line names the name asked, never the rule;
/// a `config` answer with another address (`address=/nas.lan/192.168.1.5`) is local data, not a block.
/// `reply` and `cached` lines are answers from upstream or the cache (a CNAME's target named there was
/// not blocked: dnsmasq does not look at CNAME targets).
public struct DnsmasqLog: QueryLogParser {
  public init() {}

  public var keepsClients = true

  public var tellsBlocks: Bool { true }

  static let blockingAnswers: Set<String> = ["NXDOMAIN", "NODATA", "NODATA-IPv4", "NODATA-IPv6", "0.0.0.0", "::"]

  public mutating func parse(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, file: String, clock: inout LogClock, findings: inout LogFindings,
    emit: (LogEvent) -> Void
  ) {
    guard
      let (time, start) = (line.first.map { $0 >= 0x30 && $0 <= 0x39 } == true ? clock.iso(line) : clock.syslog(line))
    else {
      findings.skip("no timestamp", file: file, line: number, text: line)
      return
    }
    var scan = LineScanner(line, from: start)
    // The program's tag, after a host name in syslog files.
    var tag = scan.next()
    if let first = tag, !scan.hasPrefix(first, "dnsmasq"), scan.bytes[first.upperBound - 1] != 0x3A {
      tag = scan.next()
    }
    guard let tag, scan.bytes[tag.upperBound - 1] == 0x3A else {
      findings.skip("no program name", file: file, line: number, text: line)
      return
    }
    guard scan.hasPrefix(tag, "dnsmasq["), !scan.hasPrefix(tag, "dnsmasq-") else {
      findings.otherLines += 1  // another program's line in a shared log
      return
    }
    var tokens = scan.rest(limit: 8)
    var client: String?
    // log-queries=extra: a serial number and the client's address/port first.
    if tokens.count >= 2, scan.isDigits(tokens[0]), scan.contains(tokens[1], 0x2F) {
      if keepsClients {
        let address = tokens[1]
        let slash = scan.bytes[address].lastIndex(of: 0x2F) ?? address.upperBound
        client = scan.text(address.lowerBound..<slash)
      }
      tokens.removeFirst(2)
    }
    guard let kind = tokens.first else {
      findings.skip("truncated line", file: file, line: number, text: line)
      return
    }
    if scan.hasPrefix(kind, "query[") {
      guard tokens.count >= 4, scan.equals(tokens[2], "from"), scan.bytes[kind.upperBound - 1] == 0x5D else {
        findings.skip("truncated query line", file: file, line: number, text: line)
        return
      }
      let type = scan.text(kind.lowerBound + 6..<kind.upperBound - 1)
      let from = keepsClients ? client ?? scan.text(tokens[3]) : nil
      guard let name = scan.validName(tokens[1], file: file, line: number, findings: &findings) else { return }
      emit(.query(time: time, name: name, type: type, client: from))
    } else if scan.equals(kind, "config") || scan.bytes[kind.lowerBound] == 0x2F {
      guard tokens.count >= 4, scan.equals(tokens[2], "is") else {
        findings.skip("truncated answer line", file: file, line: number, text: line)
        return
      }
      if Self.blockingAnswers.contains(scan.text(tokens[3])) {
        guard let name = scan.validName(tokens[1], file: file, line: number, findings: &findings) else { return }
        emit(.blocked(time: time, name: name, client: client))
      } else {
        findings.otherLines += 1
      }
    } else {
      findings.otherLines += 1
    }
  }
}
