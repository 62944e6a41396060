/// How a probe reaches a domain.
public enum ProbeKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// The system resolver (getaddrinfo: /etc/hosts, nsswitch, the configured DNS servers).
  case system
  /// Direct DNS queries (A and AAAA) to a chosen server.
  case dns
  /// An HTTPS HEAD request, for blockers that act on connections.
  case https
}

/// Finds out whether one domain is blocked. Implementations return promptly when their task is
/// cancelled (the runner cancels a probe at its timeout).
public protocol Probe: Sendable {
  /// How it probes.
  var kind: ProbeKind { get }
  /// What it asks, for reports: “system resolver”, “127.0.0.1:53”.
  var target: String { get }
  /// Probes one hostname.
  func probe(_ hostname: String) async -> Verdict
}
