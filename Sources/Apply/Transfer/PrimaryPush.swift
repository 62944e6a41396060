import DNS
import Foundation

/// Brings the fleet's primary to a rendering of the profile with signed dynamic updates, and reads back
/// what it serves: the change goes out to the secondaries as IXFR within a second of the last update.
///
/// The update is the difference from the zone the primary last confirmed (SaneHosts' copy, kept with the
/// serial the primary answered then). When the primary's serial is another (it was restarted from an
/// older file, someone else changed the zone, or nothing was confirmed yet), the zone is read back from it
/// by AXFR and the difference taken from what it really serves.
public struct PrimaryPush: Sendable {
  /// Where the primary answers.
  public var primary: ServerAddress
  /// The key its allow-update names.
  public var key: TransactionKey
  /// How long each exchange may take (a transfer of 543,000 records took 1.6 s here).
  public var timeout: Duration

  /// A push to `primary` signed with `key`.
  public init(primary: ServerAddress, key: TransactionKey, timeout: Duration = .seconds(30)) {
    self.primary = primary
    self.key = key
    self.timeout = timeout
  }

  /// What a push did.
  public struct Outcome: Sendable, Hashable {
    /// The zone's serial on the primary afterwards, as it answered.
    public var serial: UInt32
    /// Records removed and added.
    public var removed: Int
    public var added: Int
    /// Update messages sent (each a serial of its own on the primary).
    public var messages: Int
    /// Whether the zone was read back by AXFR first (the primary's serial was not the one confirmed).
    public var readBack: Bool
    /// The names blocked from now on, and those no longer blocked (the owners of `name CNAME .` records).
    public var addedNames: [String] = []
    public var removedNames: [String] = []

    /// One line for `apply`: what was sent and the serial the primary now answers.
    public var summary: String {
      let readBackText = readBack ? " (its zone read back first)" : ""
      guard removed + added > 0 else {
        return "the primary already held the profile\(readBackText): it answers serial \(serial)"
      }
      return "sent \(removed) records removed and \(added) added to the primary as "
        + "\(messages) update\(messages == 1 ? "" : "s")\(readBackText): it answers serial \(serial)"
    }
  }

  /// Brings the primary's zone to `current` (a rendering); `confirmed` is the rendering the primary last
  /// confirmed and the serial it answered then, if any; `lines`, the lines `current` lost and gained
  /// against that rendering when they are known already (an apply's change), saves comparing the two.
  public func push(
    _ current: [UInt8], confirmed: (bytes: [UInt8], serial: UInt32)?,
    lines: (removed: [String], added: [String])? = nil
  ) async throws -> Outcome {
    let resolver = Resolver(server: primary)
    guard let serial = try await resolver.serial(of: PrimaryZone.zone, timeout: .seconds(5)) else {
      throw PushError.notServing(primary: primary.description)
    }
    var update: ZoneUpdate
    var readBack = false
    if let confirmed, confirmed.serial == serial {
      update =
        lines.map { PrimaryZone.update(removedLines: $0.removed, addedLines: $0.added) }
        ?? PrimaryZone.update(from: confirmed.bytes, to: current)
    } else {
      let transfer = try await resolver.transfer(PrimaryZone.zone, key: key, timeout: timeout)
      update = PrimaryZone.update(from: transfer.records, to: current)
      readBack = true
    }
    let sent = try await resolver.send(update, key: key, timeout: timeout)
    guard let after = try await resolver.serial(of: PrimaryZone.zone, timeout: .seconds(5)) else {
      throw PushError.notServing(primary: primary.description)
    }
    return Outcome(
      serial: after, removed: update.removals.count, added: update.additions.count, messages: sent.messages,
      readBack: readBack, addedNames: Self.blockedNames(update.additions),
      removedNames: Self.blockedNames(update.removals))
  }

  /// The names that `records` block by name (`name CNAME .`; not their `*.` twins, not exceptions).
  static func blockedNames(_ records: [Record]) -> [String] {
    let suffix = "." + PrimaryZone.zone
    return records.compactMap { record in
      guard case .cname(".") = record.data, !record.name.hasPrefix("*."), record.name.hasSuffix(suffix) else {
        return nil
      }
      return String(record.name.dropLast(suffix.count))
    }
  }

  /// Why a push could not start.
  public enum PushError: Error, Sendable, Hashable, LocalizedError {
    /// The primary answers no SOA for the zone: it does not load SaneHosts' configuration yet.
    case notServing(primary: String)

    public var errorDescription: String? {
      switch self {
      case .notServing(let primary):
        "The primary \(primary) does not serve \(PrimaryZone.zone) yet."
      }
    }

    public var recoverySuggestion: String? {
      "Include SaneHosts' primary configuration (the .primary.conf beside the drop-in) from named.conf, run rndc reconfig, and apply again."
    }
  }
}
