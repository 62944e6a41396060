import Apply
import Foundation
import Store
import Traffic

/// `hits --replica`: one report per replica of the fleet, each of its own log, counted as that replica
/// blocks: a secondary fed by transfer holds the policy zone (subdomains, every record type, CNAME
/// targets), whatever its server; a Pi-hole's log is read through its API; a verified-only replica as
/// its log's server blocks with its own drop-in.
public struct FleetHits: Sendable {
  /// One replica's log: the replica's name, and its log copied here (nil for a Pi-hole: read through its API).
  public struct Log: Sendable, Hashable {
    /// The replica's name in the fleet.
    public var replica: String
    /// The log, when the replica is a DNS server.
    public var source: LogSource?

    /// Reads `NAME` (a Pi-hole), `NAME=PATH` (the log's kind from a transfer replica's server) or
    /// `NAME=KIND:PATH`.
    public init(argument: String, replicas: [Replica]) throws(FleetHitsError) {
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      guard let name = parts.first, let replica = replicas.first(where: { $0.name.lowercased() == name.lowercased() })
      else { throw .unknownReplica(argument, known: replicas.map(\.name)) }
      self.replica = replica.name
      guard parts.count == 2 else {
        guard replica.feed == .pihole else { throw .noLog(replica.name) }
        source = nil
        return
      }
      let text = parts[1]
      if let kind = replica.kind.flatMap(Self.logFormat), !text.contains(":") {
        source = LogSource(kind: kind, path: text)
      } else if let parsed = try? LogSource(argument: text) {
        source = parsed
      } else {
        throw .noFormat(replica.name, kind: replica.kind)
      }
    }

    /// The query log a transfer replica's server writes, when `hits` reads it.
    static func logFormat(_ kind: String) -> QueryLogFormat? {
      switch kind {
      case "bind": .bind
      case "unbound": .unbound
      default: nil
      }
    }
  }

  /// The store.
  public var store: Store
  /// The profile (nil: the active one).
  public var profile: String?
  /// How Pi-holes are signed in to.
  public var sessions: (any PiholeSessions)?

  /// A counter of the fleet's logs.
  public init(store: Store, profile: String? = nil, sessions: (any PiholeSessions)? = nil) {
    self.store = store
    self.profile = profile
    self.sessions = sessions
  }

  /// The target a replica's queries are counted against: the policy zone for a transfer replica; the
  /// hosts file's exact names for a Pi-hole's gravity (as `hits --pihole` counts); else the log's server.
  static func target(for replica: Replica) -> Target? {
    switch replica.feed {
    case .transfer: .server(.bind)
    case .pihole: .hosts
    case .verifiedOnly: nil
    }
  }

  /// One report per log, in the order given.
  public func reports(_ logs: [Log], since: Date?, top: Int) async throws -> [(replica: String, report: HitReport)] {
    let replicas = try store.replicas(in: profile)
    let hits = NetworkHits(store: store)
    let profileName = try profile ?? store.activeProfile().name
    var reports: [(replica: String, report: HitReport)] = []
    for log in logs {
      guard let replica = replicas.first(where: { $0.name == log.replica }) else { continue }
      let request = NetworkHits.Request(
        logs: log.source.map { [$0] } ?? [], since: since, profile: profileName,
        target: Self.target(for: replica), top: top)
      if log.source == nil, let sessions, let host = replica.pihole {
        let report = try await sessions.withClient(host) { client in try await hits.report(request, pihole: client) }
        reports.append((replica.name, report))
      } else if log.source != nil {
        reports.append((replica.name, try await hits.report(request)))
      }
    }
    return reports
  }
}

/// Why a `--replica` cannot be read.
public enum FleetHitsError: Error, Sendable, Hashable, LocalizedError {
  /// No replica of that name.
  case unknownReplica(String, known: [String])
  /// A DNS server replica given without its log.
  case noLog(String)
  /// The log's kind cannot be told from the replica's server.
  case noFormat(String, kind: String?)

  public var errorDescription: String? {
    switch self {
    case .unknownReplica(let text, let known):
      "“\(text)” names no replica of the fleet (\(known.isEmpty ? "it has none" : known.joined(separator: ", ")))."
    case .noLog(let name):
      "The replica \(name) is a DNS server: give its query log, --replica \(name)=KIND:PATH."
    case .noFormat(let name, let kind):
      "The log of \(name) (\(kind ?? "fed some other way")) needs its kind: --replica \(name)=dnsmasq:PATH, unbound:PATH or bind:PATH (PowerDNS Recursor's log is not read)."
    }
  }
}
