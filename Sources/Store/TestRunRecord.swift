import Foundation
import GRDB

/// One saved blocker test: its summary columns and the whole report as JSON.
public struct TestRunRecord: Sendable, Hashable, Codable {
  /// The run's id (nil before it is saved).
  public var id: Int64?
  /// When it started.
  public var startedAt: Date
  /// The probe used (system, dns, https).
  public var probe: String
  /// What was asked (“system resolver”, “127.0.0.1:53”).
  public var target: String
  /// How long it took.
  public var milliseconds: Int
  /// Domains blocked.
  public var blocked: Int
  /// Domains reachable.
  public var reachable: Int
  /// Domains inconclusive.
  public var inconclusive: Int
  /// The report, as the JSON the `BlockerTest` module writes.
  public var report: Data

  /// Creates a record.
  public init(
    id: Int64? = nil, startedAt: Date, probe: String, target: String, milliseconds: Int, blocked: Int, reachable: Int,
    inconclusive: Int, report: Data
  ) {
    self.id = id
    self.startedAt = startedAt
    self.probe = probe
    self.target = target
    self.milliseconds = milliseconds
    self.blocked = blocked
    self.reachable = reachable
    self.inconclusive = inconclusive
    self.report = report
  }
}

extension TestRunRecord: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "testRun"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `id` column.
    public static let id = Column(CodingKeys.id)
    /// The `startedAt` column.
    public static let startedAt = Column(CodingKeys.startedAt)
  }

  public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A test domain the user added to the registry.
public struct CustomTestDomain: Sendable, Hashable, Codable, FetchableRecord, PersistableRecord {
  public static let databaseTableName = "testDomain"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `hostname` column.
    public static let hostname = Column(CodingKeys.hostname)
    /// The `addedAt` column.
    public static let addedAt = Column(CodingKeys.addedAt)
  }

  /// The hostname (normalised by the caller).
  public var hostname: String
  /// Its category.
  public var category: String
  /// Its provider.
  public var provider: String
  /// When it was added.
  public var addedAt: Date

  /// Creates a custom test domain.
  public init(hostname: String, category: String, provider: String, addedAt: Date = Date()) {
    self.hostname = hostname
    self.category = category
    self.provider = provider
    self.addedAt = addedAt
  }
}
