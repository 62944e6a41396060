import Blocklists
import Foundation

/// What a DNS server costs to hold a profile: the time it takes to load it and the memory it keeps,
/// measured on the real servers with the 10 real lists' profile (415,743 names) and scaled by names.
///
/// The figures are `sanehosts-bench --only fleet`'s, each server Debian 12's: the drop-ins (dnsmasq,
/// unbound, Knot Resolver) from start to the first blocked answer on 127.0.0.1 and their resident memory
/// over their idle size; BIND, unbound and PowerDNS Recursor as secondaries from start to the first
/// blocked answer (the whole transfer and the load) and their resident size. `apply` and `fleet add` say
/// them before a push.
public struct ServerCost: Sendable, Hashable {
  /// The server and how it holds the names (`BIND (response-policy zone)`).
  public var server: String
  /// How many names the figures were measured with.
  public var names: Int
  /// Seconds from start (or reload) to answering with the names; nil where not measured. For a secondary,
  /// from its start to its first blocked answer: the whole transfer and the load.
  public var loadSeconds: Double?
  /// Resident memory holding the names, in MiB: over the idle size for a drop-in, the whole process for a
  /// secondary (its idle size is small beside it).
  public var residentMiB: Double

  /// A cost measured with `names` names.
  public init(server: String, names: Int, loadSeconds: Double?, residentMiB: Double) {
    self.server = server
    self.names = names
    self.loadSeconds = loadSeconds
    self.residentMiB = residentMiB
  }

  /// The profile every figure was measured with: the 10 real lists of `../shared/data/blocklists`.
  static let measuredNames = 415_743

  /// The cost of `target`'s drop-in; nil where it was not measured (dnsmasq's hosts form).
  public static func dropIn(_ target: ServerTarget) -> ServerCost? {
    switch target {
    case .dnsmasq:
      ServerCost(server: "dnsmasq (servers-file)", names: measuredNames, loadSeconds: 0.28, residentMiB: 22)
    case .unbound: ServerCost(server: "unbound (local-zone)", names: measuredNames, loadSeconds: 0.69, residentMiB: 110)
    case .bind: secondary(.bind)
    case .pdnsRecursor: secondary(.pdnsRecursor)
    case .knotResolver:
      ServerCost(server: "Knot Resolver (policy.rpz)", names: measuredNames, loadSeconds: 1.4, residentMiB: 85)
    default: nil
    }
  }

  /// The cost of a secondary of `kind` holding the zone it transferred.
  public static func secondary(_ kind: SecondaryConfiguration.Kind) -> ServerCost {
    switch kind {
    case .bind:
      ServerCost(server: "BIND (response-policy zone)", names: measuredNames, loadSeconds: 2.4, residentMiB: 270)
    case .unbound: ServerCost(server: "unbound (rpz)", names: measuredNames, loadSeconds: 3.5, residentMiB: 350)
    case .pdnsRecursor:
      ServerCost(server: "PowerDNS Recursor (rpz)", names: measuredNames, loadSeconds: 1.9, residentMiB: 129)
    }
  }

  /// The load time and memory for `count` names, scaled from the measured profile.
  public func estimate(names count: Int) -> (seconds: Double?, mebibytes: Double) {
    let scale = Double(count) / Double(names)
    return (loadSeconds.map { $0 * scale }, residentMiB * scale)
  }

  /// One sentence: `BIND (response-policy zone) holds these 415,743 names in about 284 MiB and takes
  /// about 11 s to load them (measured with 415,743).`
  public func sentence(names count: Int) -> String {
    let (seconds, mebibytes) = estimate(names: count)
    let load =
      seconds.map {
        $0 < 0.1 ? " and loads them in under 0.1 s" : " and takes about \(Self.rounded($0)) s to load them"
      } ?? ""
    let memory = mebibytes < 1 ? "under 1 MiB" : "about \(Int(mebibytes.rounded()).grouped) MiB"
    return
      "\(server) holds these \(count.grouped) names in \(memory)\(load) (measured with \(names.grouped) on Debian 12)"
  }

  /// `0.4`, `3.1`, `12`.
  static func rounded(_ value: Double) -> String {
    value >= 10 ? "\(Int(value.rounded()))" : "\((value * 10).rounded() / 10)"
  }

  /// This machine's memory in MiB (`MemTotal` of /proc/meminfo), or nil.
  public static func machineMiB(meminfo: String = "/proc/meminfo") -> Double? {
    guard let text = try? String(contentsOfFile: meminfo, encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }),
      let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return nil }
    return kib / 1024
  }
}
