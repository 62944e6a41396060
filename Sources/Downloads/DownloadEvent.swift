import Foundation

/// One event of a download; the stream ends after `completed`, `notModified` or `failed`.
public enum DownloadEvent: Sendable, Hashable {
  /// Connecting to the server (sent once per attempt, before any byte arrives).
  case connecting(attempt: Int)
  /// Bytes arrived. Throttled to about ten a second; the last one before `completed` has the final count.
  case progress(DownloadProgress)
  /// A transient failure; the next attempt starts after `delay`.
  case retrying(attempt: Int, of: Int, after: Duration, reason: DownloadError)
  /// The document is in a local temporary file, which the receiver now owns.
  case completed(CompletedDownload)
  /// The server (or the file's modification time) says the caller's copy is current.
  case notModified(NotModified)
  /// The download failed; no temporary file is left behind.
  case failed(DownloadError)

  /// Whether this event ends the stream.
  public var isTerminal: Bool {
    switch self {
    case .completed, .notModified, .failed: true
    case .connecting, .progress, .retrying: false
    }
  }
}

/// How far a transfer has got.
public struct DownloadProgress: Sendable, Hashable {
  /// Bytes of the document received so far, including bytes resumed from an earlier attempt.
  public var bytesReceived: Int64
  /// The document's full size, when the server announced it or the caller expected it.
  public var totalBytes: Int64?

  /// Creates a progress value.
  public init(bytesReceived: Int64, totalBytes: Int64?) {
    self.bytesReceived = bytesReceived
    self.totalBytes = totalBytes
  }

  /// The fraction done in 0…1, or `nil` when the size is unknown (show a spinner and the byte count).
  public var fraction: Double? {
    guard let totalBytes, totalBytes > 0 else { return nil }
    return min(1, max(0, Double(bytesReceived) / Double(totalBytes)))
  }

  /// Whether the size is unknown.
  public var isIndeterminate: Bool { fraction == nil }
}

/// A finished download: a temporary file with the document, and what the server said about it.
public struct CompletedDownload: Sendable, Hashable {
  /// The temporary file holding the document. The receiver owns it: move it into place or delete it.
  public var fileURL: URL
  /// The URL the document came from after redirects.
  public var finalURL: URL
  /// The HTTP status of the final response (200 or 206), or 200 for a local file.
  public var statusCode: Int
  /// The entity tag of the document, if the server sent one.
  public var etag: String?
  /// The `Last-Modified` value of the document (for files: their modification time as an HTTP date).
  public var lastModified: String?
  /// The document's size in bytes.
  public var byteCount: Int64
  /// The SHA-256 of the document, lowercase hex.
  public var sha256: String
  /// How many attempts it took, counted from 1.
  public var attempts: Int

  /// Creates a completed download.
  public init(
    fileURL: URL, finalURL: URL, statusCode: Int, etag: String?, lastModified: String?, byteCount: Int64,
    sha256: String, attempts: Int
  ) {
    self.fileURL = fileURL
    self.finalURL = finalURL
    self.statusCode = statusCode
    self.etag = etag
    self.lastModified = lastModified
    self.byteCount = byteCount
    self.sha256 = sha256
    self.attempts = attempts
  }

  /// The validators to store with this copy for the next conditional request.
  public var validators: Validators { Validators(etag: etag, lastModified: lastModified) }
}

/// The answer to a conditional request whose copy is still current.
public struct NotModified: Sendable, Hashable {
  /// The URL that answered, after redirects.
  public var finalURL: URL
  /// The validators the server confirmed (or sent anew).
  public var validators: Validators

  /// Creates a not-modified answer.
  public init(finalURL: URL, validators: Validators) {
    self.finalURL = finalURL
    self.validators = validators
  }
}
