import Foundation

/// Reads one server's query log line by line, telling each query and each block it finds.
public protocol QueryLogParser: Sendable {
  /// Reads one line (without its line break); skipped lines are counted in `findings`.
  mutating func parse(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, file: String, clock: inout LogClock, findings: inout LogFindings,
    emit: (LogEvent) -> Void)

  /// Whether events carry the client's address (off unless counted per client: nothing is made of it).
  var keepsClients: Bool { get set }

  /// Whether the lines read so far say which queries the server blocked (unbound tells only with
  /// `log-local-actions`).
  var tellsBlocks: Bool { get }
}

extension QueryLogFormat {
  /// A parser for this server's log.
  public func parser() -> any QueryLogParser {
    switch self {
    case .dnsmasq: DnsmasqLog()
    case .unbound: UnboundLog()
    case .bind: BindLog()
    }
  }
}
