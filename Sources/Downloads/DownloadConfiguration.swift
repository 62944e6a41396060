import Foundation

/// Limits and timing of a download manager.
public struct DownloadConfiguration: Sendable {
  /// Time allowed to open a connection (TCP and TLS).
  public var connectTimeout: Duration
  /// Longest silence allowed while waiting for the next bytes.
  public var idleTimeout: Duration
  /// Time allowed for the whole download, all attempts and redirects included.
  public var totalTimeout: Duration
  /// The largest document accepted, in bytes.
  public var maximumBytes: Int64
  /// How many redirects are followed before giving up.
  public var maximumRedirects: Int
  /// When and how often transient failures are retried.
  public var retry: RetryPolicy
  /// The shortest time between two progress events.
  public var progressInterval: Duration
  /// Where temporary files are written.
  public var temporaryDirectory: URL
  /// The `User-Agent` header sent with every request.
  public var userAgent: String
  /// PEM files of certificate authorities to trust besides the system's (a private CA, a test server).
  public var extraTrustRoots: [String]

  /// Creates a configuration; the defaults suit public blocklists (up to 512 MiB, 5 minutes in all).
  public init(
    connectTimeout: Duration = .seconds(5),
    idleTimeout: Duration = .seconds(30),
    totalTimeout: Duration = .seconds(300),
    maximumBytes: Int64 = 512 * 1024 * 1024,
    maximumRedirects: Int = 5,
    retry: RetryPolicy = RetryPolicy(),
    progressInterval: Duration = .milliseconds(100),
    temporaryDirectory: URL = FileManager.default.temporaryDirectory,
    userAgent: String = "SaneHosts",
    extraTrustRoots: [String] = []
  ) {
    self.connectTimeout = connectTimeout
    self.idleTimeout = idleTimeout
    self.totalTimeout = totalTimeout
    self.maximumBytes = maximumBytes
    self.maximumRedirects = maximumRedirects
    self.retry = retry
    self.progressInterval = progressInterval
    self.temporaryDirectory = temporaryDirectory
    self.userAgent = userAgent
    self.extraTrustRoots = extraTrustRoots
  }
}
