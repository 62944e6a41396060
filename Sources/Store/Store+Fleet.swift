import Foundation
import GRDB

extension Store {
  /// What a replica is added with: its name and how it is fed and asked.
  public struct NewReplica: Sendable, Hashable {
    /// Its name in the fleet.
    public var name: String
    /// How it gets the profile.
    public var feed: Replica.Feed
    /// The Pi-hole, for `.pihole`.
    public var pihole: String?
    /// The DNS server to ask.
    public var resolver: String?
    /// The server's kind, for `.transfer`.
    public var kind: String?
    /// The primary as the replica reaches it, for `.transfer`.
    public var primaryAddress: String?
    /// The machine's memory in MiB, when known.
    public var memoryMiB: Int?

    /// A replica to add.
    public init(
      name: String, feed: Replica.Feed, pihole: String? = nil, resolver: String? = nil, kind: String? = nil,
      primaryAddress: String? = nil, memoryMiB: Int? = nil
    ) {
      self.primaryAddress = primaryAddress
      self.memoryMiB = memoryMiB
      self.name = name
      self.feed = feed
      self.pihole = pihole
      self.resolver = resolver
      self.kind = kind
    }
  }

  /// Adds a replica to a profile's fleet (the active profile's when `profile` is nil); a name is used
  /// once per profile.
  @discardableResult
  public func addReplica(_ new: NewReplica, to profile: String? = nil) throws(StoreError) -> Replica {
    try Self.check(new)
    return try write { db in
      let profile = try Self.profile(profile, db)
      let taken = try Replica.filter(
        Replica.Columns.profileID == profile.id && Replica.Columns.name.collating(.nocase) == new.name
      ).fetchCount(db)
      guard taken == 0 else { throw StoreError.alreadyExists(kind: "replica", name: new.name) }
      return try Self.insertNew(
        Replica(
          id: 0, profileID: profile.id, name: new.name, feed: new.feed, pihole: new.pihole, resolver: new.resolver,
          kind: new.kind, primaryAddress: new.primaryAddress, memoryMiB: new.memoryMiB),
        db)
    }
  }

  /// A profile's replicas (the active profile's when `profile` is nil), by name.
  public func replicas(in profile: String? = nil) throws(StoreError) -> [Replica] {
    try read { db in
      let profile = try Self.profile(profile, db)
      return try Replica.filter(Replica.Columns.profileID == profile.id)
        .order(Replica.Columns.name.collating(.nocase)).fetchAll(db)
    }
  }

  /// The replica named `name` in a profile's fleet.
  public func replica(named name: String, in profile: String? = nil) throws(StoreError) -> Replica {
    let all = try replicas(in: profile)
    guard let found = all.first(where: { $0.name.lowercased() == name.lowercased() }) else {
      throw .notFound(kind: "replica", name: name, known: all.map(\.name))
    }
    return found
  }

  /// Removes a replica from a profile's fleet; returns what was removed.
  @discardableResult
  public func removeReplica(named name: String, from profile: String? = nil) throws(StoreError) -> Replica {
    let replica = try replica(named: name, in: profile)
    _ = try write { db in try Replica.deleteOne(db, key: replica.id) }
    return replica
  }

  /// Records that `replica`'s own answers matched the profile at `fingerprint` (and, for a transfer
  /// replica, the primary's `serial`) at `date`.
  public func recordVerified(
    _ replica: Replica, fingerprint: String, serial: UInt32?, at date: Date = Date()
  ) throws(StoreError) {
    _ = try write { db in
      try Replica.filter(key: replica.id).updateAll(
        db, Replica.Columns.verifiedAt.set(to: date), Replica.Columns.verifiedFingerprint.set(to: fingerprint),
        Replica.Columns.verifiedSerial.set(to: serial.map { Int64($0) }))
    }
  }

  /// Checks what a replica is added with: a usable name, and what its feed needs.
  static func check(_ new: NewReplica) throws(StoreError) {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
    guard !new.name.isEmpty, new.name.count <= 64, new.name.unicodeScalars.allSatisfy(allowed.contains),
      !new.name.hasPrefix("-")
    else {
      throw .invalid(
        value: new.name, reason: "is not a usable replica name: use 1 to 64 letters, digits, “-”, “_” or “.”")
    }
    switch new.feed {
    case .pihole:
      guard new.pihole?.isEmpty == false else {
        throw .invalid(value: new.name, reason: "is a Pi-hole without its host")
      }
    case .transfer:
      guard new.resolver?.isEmpty == false, let kind = new.kind, Replica.transferKinds.contains(kind) else {
        throw .invalid(
          value: new.name,
          reason:
            "takes the zone by transfer: give its address and its kind, one of \(Replica.transferKinds.joined(separator: ", "))"
        )
      }
    case .verifiedOnly:
      guard new.resolver?.isEmpty == false else {
        throw .invalid(value: new.name, reason: "is verified through its DNS server: give its address")
      }
    }
  }
}
