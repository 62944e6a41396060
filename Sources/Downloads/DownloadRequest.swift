import Foundation

/// What to download, and what the caller already has.
public struct DownloadRequest: Sendable, Hashable {
  /// The `https://`, loopback `http://` or `file://` URL of the document.
  public var url: URL
  /// The size the caller expects, used for the progress fraction when the server sends no length.
  public var expectedSize: Int64?
  /// Validators of the copy the caller already has; when they still match, the result is `notModified`.
  public var validators: Validators

  /// Creates a request.
  public init(url: URL, expectedSize: Int64? = nil, validators: Validators = Validators()) {
    self.url = url
    self.expectedSize = expectedSize
    self.validators = validators
  }

  /// The key under which the manager tracks a transfer: the URL without its fragment.
  var key: String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.fragment = nil
    return components?.string ?? url.absoluteString
  }
}

/// The ETag and Last-Modified of a copy held locally, sent as `If-None-Match` / `If-Modified-Since`.
public struct Validators: Sendable, Hashable, Codable {
  /// The entity tag the server sent with the copy.
  public var etag: String?
  /// The `Last-Modified` date the server sent with the copy, verbatim.
  public var lastModified: String?

  /// Creates validators; both `nil` means an unconditional request.
  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }

  /// Whether neither validator is set.
  public var isEmpty: Bool { etag == nil && lastModified == nil }
}
