import DNS
import Foundation

/// Probes by asking one DNS server directly for A and AAAA (UDP, TCP when truncated): how a network's
/// Pi-hole, dnsmasq or unbound is tested.
public struct DNSProbe: Probe {
  /// The server asked.
  public let resolver: Resolver
  /// Addresses that mean blocked.
  public var sinkholes: Sinkholes
  /// How long each query may take.
  public var timeout: Duration

  /// Creates a probe of one server.
  public init(resolver: Resolver, sinkholes: Sinkholes = Sinkholes(), timeout: Duration = .seconds(2)) {
    self.resolver = resolver
    self.sinkholes = sinkholes
    self.timeout = timeout
  }

  public var kind: ProbeKind { .dns }
  public var target: String { resolver.server.description }

  /// The name's A and AAAA verdict, then its leaks: a blocked name's HTTPS record, a reachable name's
  /// CNAME chain through a blocked name.
  public func probe(_ hostname: String) async -> Verdict {
    let lookup = await resolver.lookup(hostname, timeout: timeout)
    return await withLeaks(verdict(lookup), lookup)
  }

  /// What one query's reply says about the name.
  public enum Answer: Sendable, Hashable {
    /// NOERROR with addresses in the answer section (sinkholes or routable).
    case addresses([String])
    /// NOERROR with no address: the name exists, this type has no record (or the blocker answers so).
    case noData
    /// NXDOMAIN: the name does not exist.
    case nxDomain
    /// REFUSED: the server will not answer for this name.
    case refused
    /// No usable answer: another response code (SERVFAIL, NOTIMP, FORMERR), a timeout, an unreachable
    /// server, only malformed or mismatched replies.
    case failed(String)

    /// The answer of one query's outcome.
    public init(_ result: Result<Message, ResolverError>) {
      switch result {
      case .success(let message):
        switch message.responseCode {
        case .noError:
          let found = message.addresses.map(\.description)
          self = found.isEmpty ? .noData : .addresses(found)
        case .nxDomain: self = .nxDomain
        case .refused: self = .refused
        default: self = .failed(message.responseCode.description)
        }
      case .failure(let error):
        self = .failed(DNSProbe.describe(error))
      }
    }

    /// Whether the query got no usable answer.
    var isFailure: Bool {
      if case .failed = self { return true }
      return false
    }

    /// The answer in a few words, for reasons.
    func text(_ sinkholes: Sinkholes) -> String {
      switch self {
      case .addresses(let found):
        found.contains(where: { !sinkholes.contains($0) })
          ? found.joined(separator: ", ") : "sinkhole \(found.joined(separator: ", "))"
      case .noData: "NODATA"
      case .nxDomain: "NXDOMAIN"
      case .refused: "REFUSED"
      case .failed(let reason): reason
      }
    }
  }

  /// The verdict for a name's A and AAAA replies: a pure function of the two answers, whichever came first.
  ///
  /// - A routable address in either answer → reachable (a client can connect to it), whatever the other
  ///   answer is: a server that answers A and refuses AAAA does not block the name.
  /// - Either query without a usable answer (timeout, SERVFAIL, unreachable, malformed) → inconclusive: the
  ///   missing answer could have held a routable address, so a refusal or NXDOMAIN of the other type alone
  ///   never makes a name blocked.
  /// - Both answered, neither with a routable address (a sinkhole address such as 0.0.0.0, ::, 127.0.0.1 or
  ///   a block page, NXDOMAIN, NODATA or REFUSED, in any combination) → blocked.
  public func verdict(_ lookup: Lookup) -> Verdict {
    let a = Answer(lookup.a)
    let aaaa = Answer(lookup.aaaa)
    var addresses: [String] = []
    for answer in [a, aaaa] { if case .addresses(let found) = answer { addresses += found } }
    if let routable = addresses.first(where: { !sinkholes.contains($0) }) {
      return Verdict(.reachable, routable, addresses: addresses)
    }
    if a.isFailure || aaaa.isFailure {
      let reason = "A: \(a.text(sinkholes)); AAAA: \(aaaa.text(sinkholes))"
      return Verdict(.inconclusive, reason, addresses: addresses)
    }
    let reason: String
    switch (a, aaaa) {
    case (.addresses, .addresses):
      reason = "sinkhole \(Array(Set(addresses)).sorted().joined(separator: ", "))"
    case (.addresses(let found), _):
      // A sinkhole for A, and no address for AAAA (a blocker that answers 0.0.0.0 and refuses AAAA).
      reason = "sinkhole \(Array(Set(found)).sorted().joined(separator: ", ")) (AAAA: \(aaaa.text(sinkholes)))"
    case (_, .addresses(let found)):
      reason = "\(a.text(sinkholes)) (AAAA: sinkhole \(Array(Set(found)).sorted().joined(separator: ", ")))"
    default:
      reason = a == aaaa ? a.text(sinkholes) : "\(a.text(sinkholes)) (AAAA: \(aaaa.text(sinkholes)))"
    }
    return Verdict(
      .blocked, reason, addresses: addresses, upstreamZone: addresses.isEmpty ? Self.upstreamZone(lookup) : nil)
  }

  /// The zone whose SOA both replies carry in their authority sections, when it is a zone above the name
  /// (or the name itself) other than the root: an upstream's negative answer (RFC 2308 §3). A blocker's
  /// own NXDOMAIN has none (dnsmasq `server=/name/`) or its policy zone's (BIND RPZ), which is not above
  /// the name.
  static func upstreamZone(_ lookup: Lookup) -> String? {
    func trimmed(_ name: String) -> String {
      let lower = name.lowercased()
      return lower.count > 1 && lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
    func zone(_ reply: Result<Message, ResolverError>) -> String? {
      guard case .success(let message) = reply else { return nil }
      return message.authority.first { $0.type == .soa }.map { trimmed($0.name) }
    }
    let name = trimmed(lookup.name)
    guard let owner = zone(lookup.a), owner == zone(lookup.aaaa), owner != "." else { return nil }
    return name == owner || name.hasSuffix("." + owner) ? owner : nil
  }

  static func describe(_ error: ResolverError) -> String {
    switch error {
    case .timeout: "timeout"
    case .unreachable(_, let detail): "unreachable (\(detail))"
    case .malformedReply(let problem): "malformed reply (\(problem))"
    case .cancelled: "cancelled"
    default: error.localizedDescription
    }
  }
}
