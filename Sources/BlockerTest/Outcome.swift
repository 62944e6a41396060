/// What a probe found out about one domain.
public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
  /// The blocker stopped it: NXDOMAIN, NODATA, REFUSED, a null or sinkhole address, or (HTTPS) a
  /// connection refused at a null address.
  case blocked
  /// It resolved to a routable address (HTTPS: any HTTP response, or a TLS error after connecting).
  case reachable
  /// Nothing can be concluded: a timeout, SERVFAIL, no network. Never counted as blocked.
  case inconclusive
}

/// An outcome with the reason for it, as shown to the user (“NXDOMAIN”, “0.0.0.0”, “timeout after 2 s”).
public struct Verdict: Sendable, Hashable, Codable {
  /// The outcome.
  public var outcome: Outcome
  /// Why, in a few words.
  public var reason: String
  /// The addresses it resolved to, if any.
  public var addresses: [String]

  /// Creates a verdict.
  public init(_ outcome: Outcome, _ reason: String, addresses: [String] = []) {
    self.outcome = outcome
    self.reason = reason
    self.addresses = addresses
  }
}
