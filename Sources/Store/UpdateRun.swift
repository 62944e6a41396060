import Foundation
import GRDB

/// One finished `update`: when, what each source did, what the profile compiled to.
public struct UpdateRun: Sendable, Hashable, Codable, Identifiable {
  /// How a run ended.
  public enum Outcome: String, Sendable, Hashable, Codable {
    /// Every source updated or unchanged.
    case completed
    /// Some sources failed; the others were saved.
    case partial
    /// Every source failed.
    case failed
  }

  /// What one source did in a run.
  public struct SourceResult: Sendable, Hashable, Codable {
    /// The source's key.
    public var key: String
    /// `updated`, `unchanged` or `failed`.
    public var status: Source.Status
    /// Why it is unchanged or failed.
    public var message: String?
    /// Distinct names after the run.
    public var names: Int?
    /// Bytes downloaded in the run.
    public var bytesDownloaded: Int64
    /// Seconds the source took.
    public var seconds: Double

    /// Creates a result.
    public init(
      key: String, status: Source.Status, message: String? = nil, names: Int? = nil, bytesDownloaded: Int64 = 0,
      seconds: Double = 0
    ) {
      self.key = key
      self.status = status
      self.message = message
      self.names = names
      self.bytesDownloaded = bytesDownloaded
      self.seconds = seconds
    }
  }

  /// The row id.
  public var id: Int64?
  /// The profile updated (nil once the profile is deleted).
  public var profileID: Int64?
  /// The profile's name at the time.
  public var profileName: String
  /// When it started.
  public var startedAt: Date
  /// When it finished.
  public var finishedAt: Date
  /// Whether `--force` was given.
  public var forced: Bool
  /// How it ended.
  public var outcome: Outcome
  /// Sources whose content changed.
  public var updated: Int
  /// Sources whose content had not changed.
  public var unchanged: Int
  /// Sources that failed.
  public var failed: Int
  /// Names in the profile's compiled block set after the run.
  public var names: Int
  /// Per source.
  public var results: [SourceResult]

  /// Creates a run record.
  public init(
    profileID: Int64?, profileName: String, startedAt: Date, finishedAt: Date, forced: Bool, results: [SourceResult],
    names: Int
  ) {
    self.profileID = profileID
    self.profileName = profileName
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.forced = forced
    self.results = results
    self.names = names
    updated = results.filter { $0.status == .updated }.count
    unchanged = results.filter { $0.status == .unchanged }.count
    failed = results.filter { $0.status == .failed }.count
    outcome = failed == 0 ? .completed : failed == results.count ? .failed : .partial
  }
}

extension UpdateRun: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "updateRun"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `id` column.
    public static let id = Column(CodingKeys.id)
    /// The `profileID` column.
    public static let profileID = Column(CodingKeys.profileID)
  }

  public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The compiled block set of a profile, saved as a plain list of names.
public struct CompiledProfile: Sendable, Hashable, Codable {
  /// The profile.
  public var profileID: Int64
  /// The profile's block set file, relative to the data directory (before v3: a names file).
  public var file: String
  /// What identifies the content: since the block set files, the fingerprint of what it was compiled
  /// from (hashing a multi-megabyte binary file again told nothing more); before, the SHA-256 of the
  /// names file.
  public var sha256: String
  /// Names in it.
  public var names: Int
  /// A digest of what it was compiled from (sources' checksums and rules): equal means up to date.
  public var fingerprint: String
  /// When it was compiled.
  public var compiledAt: Date
  /// Names each allow or deny rule removed or added.
  public var ruleCounts: [String: Int]

  /// Creates a record.
  public init(
    profileID: Int64, file: String, sha256: String, names: Int, fingerprint: String, compiledAt: Date,
    ruleCounts: [String: Int]
  ) {
    self.profileID = profileID
    self.file = file
    self.sha256 = sha256
    self.names = names
    self.fingerprint = fingerprint
    self.compiledAt = compiledAt
    self.ruleCounts = ruleCounts
  }
}

extension CompiledProfile: FetchableRecord, PersistableRecord {
  public static let databaseTableName = "compiledProfile"
}
