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

  public func probe(_ hostname: String) async -> Verdict {
    verdict(await resolver.lookup(hostname, timeout: timeout))
  }

  /// The verdict for a name's A and AAAA replies:
  /// - any routable address → reachable;
  /// - NXDOMAIN or REFUSED for either → blocked;
  /// - only sinkhole addresses → blocked;
  /// - both answered with no address (NODATA) → blocked;
  /// - otherwise (a timeout, SERVFAIL, an unreachable server) → inconclusive, with the reasons.
  public func verdict(_ lookup: Lookup) -> Verdict {
    let replies = [("A", lookup.a), ("AAAA", lookup.aaaa)]
    var addresses: [String] = []
    var negative: String?
    var noData = 0
    var problems: [String] = []
    for (type, result) in replies {
      switch result {
      case .success(let message):
        switch message.flags.responseCode {
        case .nxDomain: negative = negative ?? "NXDOMAIN"
        case .refused: negative = negative ?? "REFUSED"
        case .noError:
          let found = message.answers.compactMap { record -> String? in
            switch record.data {
            case .a(let address): address.description
            case .aaaa(let address): address.description
            default: nil
            }
          }
          if found.isEmpty { noData += 1 }
          addresses += found
        default:
          problems.append("\(type): \(message.flags.responseCode)")
        }
      case .failure(let error):
        problems.append("\(type): \(Self.describe(error))")
      }
    }
    if addresses.contains(where: { !sinkholes.contains($0) }) { return sinkholes.verdict(for: addresses) }
    if let negative { return Verdict(.blocked, negative, addresses: addresses) }
    if !addresses.isEmpty { return sinkholes.verdict(for: addresses) }
    if noData == 2 { return Verdict(.blocked, "NODATA") }
    return Verdict(.inconclusive, problems.joined(separator: "; "))
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
