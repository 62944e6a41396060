import Foundation

/// Which URLs may be fetched and followed, and how they are shown in messages.
public enum URLPolicy {
  /// The kinds of source a URL can name.
  public enum Kind: Sendable, Hashable {
    case remote
    case file(path: String)
  }

  /// Checks a URL before any connection: https anywhere, http only to this machine, or a local file.
  public static func check(_ url: URL) throws(DownloadError) -> Kind {
    switch url.scheme?.lowercased() {
    case "https":
      guard url.host?.isEmpty == false else { throw .invalidURL(redacted(url)) }
      return .remote
    case "http":
      guard let host = url.host, !host.isEmpty else { throw .invalidURL(redacted(url)) }
      guard isLoopback(host) else { throw .insecureURL(url: redacted(url)) }
      return .remote
    case "file":
      return .file(path: url.path)
    case nil:
      throw .invalidURL(redacted(url))
    default:
      throw .unsupportedScheme(url: redacted(url))
    }
  }

  /// Checks a redirect target: same rules, never to file://, and never from https down to http.
  public static func checkRedirect(from: URL, to: URL) throws(DownloadError) {
    let kind: Kind
    do {
      kind = try check(to)
    } catch .insecureURL, .unsupportedScheme {
      throw .insecureRedirect(from: redacted(from), to: redacted(to))
    }
    if case .file = kind { throw .insecureRedirect(from: redacted(from), to: redacted(to)) }
    if from.scheme?.lowercased() == "https" && to.scheme?.lowercased() != "https" {
      throw .insecureRedirect(from: redacted(from), to: redacted(to))
    }
  }

  /// Whether a host name or address is this machine: `localhost`, 127.0.0.0/8 or ::1.
  public static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
  }

  /// The URL as text without user name and password, for messages and logs.
  public static func redacted(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      components.user != nil || components.password != nil
    else { return url.absoluteString }
    components.user = nil
    components.password = nil
    return components.string ?? url.absoluteString
  }
}
