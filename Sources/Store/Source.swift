import Blocklists
import Foundation
import GRDB

/// A list SaneHosts downloads: where it is, how it is read, and what its last download gave.
public struct Source: Sendable, Hashable, Codable, Identifiable {
  /// How the last attempt ended.
  public enum Status: String, Sendable, Hashable, Codable {
    /// Never downloaded.
    case new
    /// Downloaded, and the content changed.
    case updated
    /// Downloaded or checked, and the content had not changed.
    case unchanged
    /// The last attempt failed; the previous good copy (if any) is still used.
    case failed
  }

  /// The row id (the store assigns it when the source is added).
  public var id: Int64
  /// The short unique name used in commands, e.g. `stevenblack-unified`.
  public var key: String
  /// The display name.
  public var name: String
  /// Where the list is: an `https://` or `http://` URL, or a `file://` URL.
  public var location: String
  /// The catalog entry it came from, if any.
  public var catalogID: String?
  /// The format forced for it; `nil` recognises each line.
  public var format: InputFormat?
  /// Its category (a catalog category id), if known.
  public var category: String?
  /// When it was added.
  public var addedAt: Date

  /// The ETag of the last good copy.
  public var etag: String?
  /// The Last-Modified date of the last good copy.
  public var lastModified: String?
  /// The SHA-256 of the last good copy.
  public var sha256: String?
  /// The last good copy, relative to the data directory.
  public var cacheFile: String?
  /// When it was last tried.
  public var lastAttempt: Date?
  /// When it last downloaded or checked successfully.
  public var lastSuccess: Date?
  /// When its content last changed.
  public var lastChange: Date?
  /// How the last attempt ended.
  public var status: Status = .new
  /// Why the last attempt failed, and what to do.
  public var message: String?
  /// Bytes in the last good copy.
  public var bytes: Int64?
  /// Valid names in the last good copy, repeats included.
  public var accepted: Int?
  /// Distinct names in the last good copy.
  public var unique: Int?
  /// Names the list repeats.
  public var duplicates: Int?
  /// Rejected tokens in the last good copy.
  public var rejected: Int?
  /// The format most of its lines were in.
  public var detectedFormat: InputFormat?
  /// Rejections by reason, with samples.
  public var findings: Findings?
  /// The copy before the last good one (kept for `sources diff`), relative to the data directory.
  public var previousCacheFile: String?
  /// Its SHA-256, distinct names and valid names (repeats included), and when it had become current.
  public var previousSha256: String?
  public var previousUnique: Int?
  public var previousAccepted: Int?
  public var previousChange: Date?
  /// A new copy held back as a suspicious shrink (under half the names of the last good copy), until
  /// accepted (`sources accept`, `update --accept-shrink`); the last good copy stays in use.
  public var heldCopy: SourceUpdate.Copy?
  /// The date the last good copy's own header gives (`Last modified:`, `Version:`…), if any.
  public var headerDate: Date?
  /// Other places the same list is published, tried in order when `location` fails (nil: none).
  public var mirrors: [String]?
  /// The mirror the current copy came from; nil when it came from `location`.
  public var servedFrom: String?

  /// Creates a source that has never been downloaded, with row id `id`.
  public init(
    id: Int64, key: String, name: String, location: String, catalogID: String? = nil, format: InputFormat? = nil,
    category: String? = nil, addedAt: Date = Date()
  ) {
    self.id = id
    self.key = key
    self.name = name
    self.location = location
    self.catalogID = catalogID
    self.format = format
    self.category = category
    self.addedAt = addedAt
  }

  /// The location as a URL.
  public var url: URL? { URL(string: location) }

  /// Whether it is a local file.
  public var isFile: Bool { location.hasPrefix("file://") }

  /// Whether a good copy has ever been saved.
  public var hasCopy: Bool { cacheFile != nil }
}

extension Source: FetchableRecord, MutablePersistableRecord {
  public static let databaseTableName = "source"

  /// The columns queries use, named once.
  public enum Columns {
    /// The `id` column.
    public static let id = Column(CodingKeys.id)
    /// The `key` column.
    public static let key = Column(CodingKeys.key)
    /// The `location` column.
    public static let location = Column(CodingKeys.location)
  }
}

/// A source as it stands in one profile.
public struct ProfileSource: Sendable, Hashable {
  /// The source.
  public var source: Source
  /// Whether the profile uses it.
  public var enabled: Bool

  /// Creates a membership.
  public init(source: Source, enabled: Bool) {
    self.source = source
    self.enabled = enabled
  }
}
