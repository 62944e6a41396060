import Foundation
import GRDB

/// One resolver or Pi-hole of a profile's fleet: a machine kept blocking as the profile does.
public struct Replica: Sendable, Hashable, Codable, Identifiable {
  /// How the replica gets the profile.
  public enum Feed: String, Sendable, Hashable, Codable, CaseIterable {
    /// A Pi-hole v6, its lists and rules synced through its API.
    case pihole
    /// A DNS server that takes the profile's response-policy zone by zone transfer.
    case transfer
    /// Fed by some other path (subscribed to `serve`'s list, or its own `apply`): verified only.
    case verifiedOnly = "verified-only"
  }

  /// The row id (the store assigns it when the replica is added).
  public var id: Int64
  /// The profile it is kept the same as.
  public var profileID: Int64
  /// Its name in the fleet, e.g. `upstairs-pihole`.
  public var name: String
  /// How it gets the profile.
  public var feed: Feed
  /// The Pi-hole (host, address or URL), for `.pihole`.
  public var pihole: String?
  /// The DNS server to ask (`IP` or `IP:port`); for a Pi-hole, its DNS server when known.
  public var resolver: String?
  /// The server's kind for `.transfer`: `bind`, `unbound` or `pdns-recursor`.
  public var kind: String?
  /// When it was added.
  public var addedAt: Date
  /// For `.transfer`: the primary as the replica reaches it (`IP` or `IP:port`), which its snippet names.
  public var primaryAddress: String?
  /// The machine's memory in MiB, when the user said it (`fleet add --memory`): what the profile's cost is
  /// weighed against.
  public var memoryMiB: Int?
  /// When its own answers last matched the profile (`fleet sync` or `fleet status`), nil: never.
  public var verifiedAt: Date?
  /// The profile's fingerprint it was verified against.
  public var verifiedFingerprint: String?
  /// For `.transfer`: the primary's serial it was verified against.
  public var verifiedSerial: UInt32?

  /// Creates a replica with row id `id`.
  public init(
    id: Int64, profileID: Int64, name: String, feed: Feed, pihole: String? = nil, resolver: String? = nil,
    kind: String? = nil, addedAt: Date = Date(), primaryAddress: String? = nil, memoryMiB: Int? = nil
  ) {
    self.memoryMiB = memoryMiB
    self.primaryAddress = primaryAddress
    self.id = id
    self.profileID = profileID
    self.name = name
    self.feed = feed
    self.pihole = pihole
    self.resolver = resolver
    self.kind = kind
    self.addedAt = addedAt
  }

  /// The kinds of server that take a zone by transfer.
  public static let transferKinds = ["bind", "unbound", "pdns-recursor"]
}

extension Replica: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "replica"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `profileID` column.
    public static let profileID = Column(CodingKeys.profileID)
    /// The `name` column.
    public static let name = Column(CodingKeys.name)
    /// The `verifiedAt` column.
    public static let verifiedAt = Column(CodingKeys.verifiedAt)
    /// The `verifiedFingerprint` column.
    public static let verifiedFingerprint = Column(CodingKeys.verifiedFingerprint)
    /// The `verifiedSerial` column.
    public static let verifiedSerial = Column(CodingKeys.verifiedSerial)
  }
}
