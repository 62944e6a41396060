import Blocklists
import Foundation
import Store

/// A source of a profile as every front end shows it: `sanehosts sources list --json`, `profile show`,
/// and the dashboard's API and pages. One view, made in one place.
public struct SourceSummary: Codable, Sendable, Hashable {
  /// The short name used in commands.
  public var key: String
  /// The display name.
  public var name: String
  /// The URL or file.
  public var location: String
  /// Whether the profile uses it.
  public var enabled: Bool
  /// The catalog entry it came from.
  public var catalogID: String?
  /// The catalog category.
  public var category: String?
  /// The forced format, else the one most lines were in.
  public var format: String?
  /// `new`, `updated`, `unchanged` or `failed`.
  public var status: String
  /// Why the last attempt failed.
  public var message: String?
  /// When it was last tried, last saved, last changed.
  public var lastAttempt: Date?
  public var lastSuccess: Date?
  public var lastChange: Date?
  /// The validators and checksum of the saved copy.
  public var etag: String?
  public var lastModified: String?
  public var sha256: String?
  /// Bytes in the copy.
  public var bytes: Int64?
  /// Valid names with repeats, distinct names, repeats, rejected tokens.
  public var accepted: Int?
  public var unique: Int?
  public var duplicates: Int?
  public var rejected: Int?
  /// Rejected tokens by reason, with samples.
  public var rejectedByReason: [String: Int]?
  public var samples: [String: [Findings.Sample]]?

  /// Distinct names in the copy before the last good one, and the change since (the trend).
  public var previousUnique: Int?
  public var change: Int?
  /// The date the copy's own header gives.
  public var headerDate: Date?
  /// Other places the list is published (`sources add --mirror`, or the catalog's).
  public var mirrors: [String]?
  /// The mirror the copy in use came from; nil when from the source's own URL.
  public var servedFrom: String?
  /// Set when the source looks stale (see `Source.staleness`).
  public var stale: Source.Staleness?
  /// A new copy held back as a suspicious shrink: its valid names (repeats included) and checksum.
  public var heldNames: Int?
  public var heldSha256: String?

  /// The summary of a source as it stands in a profile; stale after `staleDays` days.
  public init(_ member: ProfileSource, staleDays: Int = ProfileStatus.defaultStaleDays, now: Date = Date()) {
    let source = member.source
    key = source.key
    name = source.name
    location = source.location
    enabled = member.enabled
    catalogID = source.catalogID
    category = source.category
    format = (source.format ?? source.detectedFormat)?.rawValue
    status = source.status.rawValue
    message = source.message
    lastAttempt = source.lastAttempt
    lastSuccess = source.lastSuccess
    lastChange = source.lastChange
    etag = source.etag
    lastModified = source.lastModified
    sha256 = source.sha256
    bytes = source.bytes
    accepted = source.accepted
    unique = source.unique
    duplicates = source.duplicates
    rejected = source.rejected
    previousUnique = source.previousUnique
    change = source.trend.change
    headerDate = source.headerDate
    mirrors = source.mirrors
    servedFrom = source.servedFrom
    stale = source.staleness(days: staleDays, now: now)
    heldNames = source.heldCopy?.accepted
    heldSha256 = source.heldCopy?.sha256
    if let findings = source.findings {
      rejectedByReason = Dictionary(uniqueKeysWithValues: findings.rejected.map { ($0.key.rawValue, $0.value) })
      samples = Dictionary(uniqueKeysWithValues: findings.samples.map { ($0.key.rawValue, $0.value) })
    }
  }
}
