import Foundation

/// Why reading a network's query logs failed.
public enum TrafficError: Error, LocalizedError, Sendable, Equatable {
  /// A `--log` value that is not `KIND:PATH` with a known kind.
  case badLogArgument(String)
  /// A log file that cannot be opened.
  case unreadable(path: String, reason: String)
  /// A `--since` value that is neither a duration nor a date.
  case badSince(String)
  /// Nothing to read: no `--log` and no Pi-hole.
  case noLogs

  public var errorDescription: String? {
    switch self {
    case .badLogArgument(let value):
      "'\(value)' is not a query log: give KIND:PATH, KIND one of \(QueryLogFormat.allCases.map(\.rawValue).joined(separator: ", ")) (e.g. dnsmasq:/var/log/dnsmasq.log)"
    case .unreadable(let path, let reason):
      "cannot read the query log \(path): \(reason); check the path and that you may read it (sudo?)"
    case .badSince(let value):
      "'\(value)' is not a time to count from: give a duration (90m, 24h, 7d) or a date (2026-11-20, 2026-11-20T08:00)"
    case .noLogs:
      "Give at least one --log KIND:PATH (KIND dnsmasq, unbound or bind; e.g. --log dnsmasq:/var/log/dnsmasq.log) or --pihole HOST."
    }
  }
}
