/// What a probe found out about one domain.
public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
  /// The blocker stopped it: NXDOMAIN, NODATA, REFUSED, a null or sinkhole address, or (HTTPS) a
  /// connection refused at a null address.
  case blocked
  /// It resolved to a routable address (HTTPS: any HTTP response, or a TLS error after connecting).
  case reachable
  /// Its A and AAAA answers are blocked or it is an alias of a blocked name, yet a client still gets a
  /// real address: from its HTTPS record's address hints, or through a CNAME chain to a blocked name
  /// (CNAME cloaking). Counted as not blocked.
  case leaking
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
  /// The CNAME chain the answer followed, the name first (`track.example → ads.example`), when it had one.
  public var chain: [String]?
  /// For a DNS answer with no address, the zone above the name whose SOA both negative answers carried
  /// (`shop.test`): the upstream's own "no such name" (RFC 2308), which a blocker's local answer lacks.
  public var upstreamZone: String?

  /// Creates a verdict.
  public init(
    _ outcome: Outcome, _ reason: String, addresses: [String] = [], chain: [String]? = nil,
    upstreamZone: String? = nil
  ) {
    self.outcome = outcome
    self.reason = reason
    self.addresses = addresses
    self.chain = chain
    self.upstreamZone = upstreamZone
  }
}
