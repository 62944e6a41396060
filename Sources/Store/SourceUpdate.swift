import Blocklists
import Foundation

/// What an update found for one source, to be saved with the rest of the run in one transaction.
public struct SourceUpdate: Sendable {
  /// A new good copy and what parsing it found.
  public struct Copy: Sendable, Hashable, Codable {
    /// Its ETag.
    public var etag: String?
    /// Its Last-Modified date.
    public var lastModified: String?
    /// Its SHA-256.
    public var sha256: String
    /// The copy, already in the list cache, relative to the data directory; its names compiled alone
    /// are beside it (`Store.listFile(forCopy:)`).
    public var cacheFile: String
    /// Bytes in it.
    public var bytes: Int64
    /// Valid names, repeats included.
    public var accepted: Int
    /// Distinct names.
    public var unique: Int
    /// Repeated names.
    public var duplicates: Int
    /// Rejected tokens.
    public var rejected: Int
    /// The format most lines were in.
    public var detectedFormat: InputFormat?
    /// Rejections by reason with samples.
    public var findings: Findings
    /// The date in the copy's own header, if it gives one.
    public var headerDate: Date?
    /// The mirror it came from; nil when from the source's own location.
    public var servedFrom: String?

    /// Creates a copy description.
    public init(
      etag: String?, lastModified: String?, sha256: String, cacheFile: String, bytes: Int64,
      accepted: Int, unique: Int, duplicates: Int, rejected: Int, detectedFormat: InputFormat?, findings: Findings,
      headerDate: Date? = nil
    ) {
      self.headerDate = headerDate
      self.etag = etag
      self.lastModified = lastModified
      self.sha256 = sha256
      self.cacheFile = cacheFile
      self.bytes = bytes
      self.accepted = accepted
      self.unique = unique
      self.duplicates = duplicates
      self.rejected = rejected
      self.detectedFormat = detectedFormat
      self.findings = findings
    }
  }

  /// What happened.
  public enum Change: Sendable {
    /// The content changed: save the new copy.
    case updated(Copy)
    /// A new copy held back as a suspicious shrink: saved beside the last good copy, which stays in use.
    case held(Copy, message: String)
    /// The content had not changed; the server may have sent new validators. `servedFrom`: the mirror
    /// that said so (nil: the source's own location).
    case unchanged(etag: String?, lastModified: String?, servedFrom: String? = nil)
    /// The attempt failed: keep the previous copy.
    case failed(message: String)
  }

  /// The source.
  public var sourceID: Int64
  /// When it was tried.
  public var attemptedAt: Date
  /// What happened.
  public var change: Change

  /// Creates an update.
  public init(sourceID: Int64, attemptedAt: Date, change: Change) {
    self.sourceID = sourceID
    self.attemptedAt = attemptedAt
    self.change = change
  }
}
