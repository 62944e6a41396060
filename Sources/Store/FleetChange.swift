import Foundation
import GRDB

/// What one `fleet sync` changed in a profile's zone: the names it added and removed, so a replica
/// verified before it is asked exactly those names (`fleet status`).
public struct FleetChange: Sendable, Hashable, Codable, Identifiable {
  /// The row id, in the order the changes were made; nil until stored.
  public var id: Int64?
  /// The profile.
  public var profileID: Int64
  /// The profile's fingerprint after the change.
  public var fingerprint: String
  /// The primary's serial after the change, when there is a primary.
  public var serial: UInt32?
  /// Names added (blocked from now on).
  public var added: [String]
  /// Names removed (no longer blocked).
  public var removed: [String]
  /// When it was made.
  public var at: Date

  /// A change; the store assigns `id`.
  public init(
    id: Int64? = nil, profileID: Int64, fingerprint: String, serial: UInt32?, added: [String], removed: [String],
    at: Date = Date()
  ) {
    self.id = id
    self.profileID = profileID
    self.fingerprint = fingerprint
    self.serial = serial
    self.added = added
    self.removed = removed
    self.at = at
  }

  /// How many names one change keeps of each kind: enough to ask every changed name of an ordinary
  /// update, bounded for a first sync of half a million.
  public static let namesKept = 2_000
  /// How many changes a profile keeps.
  public static let kept = 100
}

extension FleetChange: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "fleetChange"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `profileID` column.
    public static let profileID = Column(CodingKeys.profileID)
    /// The `id` column.
    public static let id = Column(CodingKeys.id)
  }

  public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Store {
  /// Records a change the fleet was synced with (names beyond `FleetChange.namesKept` of each kind are
  /// left out); keeps the profile's latest `FleetChange.kept`.
  public func recordFleetChange(
    profile: String? = nil, fingerprint: String, serial: UInt32?, added: [String], removed: [String],
    at date: Date = Date()
  ) throws(StoreError) {
    _ = try write { db in
      let profile = try Self.profile(profile, db)
      var change = FleetChange(
        profileID: profile.id, fingerprint: fingerprint, serial: serial,
        added: Array(added.prefix(FleetChange.namesKept)), removed: Array(removed.prefix(FleetChange.namesKept)),
        at: date)
      try change.insert(db)
      let old = try FleetChange.filter(FleetChange.Columns.profileID == profile.id)
        .order(FleetChange.Columns.id.desc).limit(-1, offset: FleetChange.kept).fetchAll(db)
      for row in old { _ = try row.delete(db) }
    }
  }

  /// The changes made after the one that left the profile at `fingerprint`, oldest first; nil when no
  /// kept change left it there (never verified, or verified before the changes kept).
  public func fleetChanges(in profile: String? = nil, after fingerprint: String?) throws(StoreError) -> [FleetChange]? {
    try read { db in
      let profile = try Self.profile(profile, db)
      let all = try FleetChange.filter(FleetChange.Columns.profileID == profile.id).order(FleetChange.Columns.id)
        .fetchAll(db)
      guard let fingerprint, let index = all.lastIndex(where: { $0.fingerprint == fingerprint }) else {
        return nil
      }
      return Array(all[(index + 1)...])
    }
  }
}

extension Store {
  /// Every change kept for the profile, oldest first.
  public func fleetChanges(in profile: String? = nil) throws(StoreError) -> [FleetChange] {
    try read { db in
      let profile = try Self.profile(profile, db)
      return try FleetChange.filter(FleetChange.Columns.profileID == profile.id).order(FleetChange.Columns.id)
        .fetchAll(db)
    }
  }

  /// The latest change the fleet was synced with: what the primary holds since; nil when none was made.
  public func latestFleetChange(in profile: String? = nil) throws(StoreError) -> FleetChange? {
    try read { db in
      let profile = try Self.profile(profile, db)
      return try FleetChange.filter(FleetChange.Columns.profileID == profile.id)
        .order(FleetChange.Columns.id.desc).fetchOne(db)
    }
  }
}
