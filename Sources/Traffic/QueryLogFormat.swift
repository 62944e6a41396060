import Foundation

/// A DNS server whose query log `hits` reads.
public enum QueryLogFormat: String, CaseIterable, Sendable, Codable {
  /// dnsmasq with `log-queries` (or `log-queries=extra`) and `log-facility=FILE`.
  case dnsmasq
  /// unbound with `log-queries` and `log-local-actions` (or `log-replies`), `use-syslog: no`, `logfile:`.
  case unbound
  /// BIND 9 with `querylog yes` and its `queries` and `rpz` categories logged to files.
  case bind

  /// Why the server's log cannot tell a block from an answer, and what to log so it does.
  public var blindReason: String {
    switch self {
    case .dnsmasq: "dnsmasq logs its answers only with log-queries"
    case .unbound: "unbound logs its local answers only with log-local-actions: yes"
    case .bind: "BIND logs its RPZ rewrites only in the rpz category (category rpz { … };), and these logs have none"
    }
  }

  /// What the server must log for `hits` to tell queries and blocks apart.
  public var setup: String {
    switch self {
    case .dnsmasq: "log-queries (or log-queries=extra) and log-facility=/var/log/dnsmasq.log"
    case .unbound:
      "log-queries: yes, log-local-actions: yes (log-replies: yes without log-queries), use-syslog: no, logfile: \"/var/log/unbound.log\""
    case .bind:
      "querylog yes; and logging { channel q { file \"/var/log/named/queries.log\"; print-time yes; }; category queries { q; }; category rpz { q; }; };"
    }
  }
}

/// One `--log KIND:PATH`: which server wrote the file, and where it is.
public struct LogSource: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The server.
  public var kind: QueryLogFormat
  /// The log file (its rotated siblings are read too: `LogFiles`), or `journal` / `journal:UNIT` for the
  /// systemd journal (`Journal`).
  public var path: String
  /// For the journal: a journal file to read instead of the system's (`--journal-file`, a copied journal).
  public var journalFile: String?

  /// A log source.
  public init(kind: QueryLogFormat, path: String, journalFile: String? = nil) {
    self.kind = kind
    self.path = path
    self.journalFile = journalFile
  }

  /// Reads `dnsmasq:/var/log/dnsmasq.log`, `dnsmasq:journal` or `dnsmasq:journal:dnsmasq.service`.
  public init(argument: String) throws(TrafficError) {
    guard let colon = argument.firstIndex(of: ":"),
      let kind = QueryLogFormat(rawValue: String(argument[..<colon]).lowercased())
    else { throw .badLogArgument(argument) }
    let path = String(argument[argument.index(after: colon)...])
    guard !path.isEmpty else { throw .badLogArgument(argument) }
    self.init(kind: kind, path: path)
  }

  public var description: String { "\(kind.rawValue):\(path)" }
}
