import Foundation

/// Why a download failed. Every message names the URL (without credentials) and says what to do.
public enum DownloadError: Error, Sendable, Hashable {
  /// Which time limit ran out.
  public enum TimeoutKind: String, Sendable, Hashable {
    case connect, idle, total
  }

  /// The text is not a usable URL.
  case invalidURL(String)
  /// The scheme is neither https, http (loopback only) nor file.
  case unsupportedScheme(url: String)
  /// Plain `http://` to a host that is not on this machine.
  case insecureURL(url: String)
  /// The host name did not resolve or the connection was refused.
  case unreachableHost(url: String, detail: String)
  /// A time limit ran out.
  case timeout(url: String, kind: TimeoutKind, limit: Duration)
  /// The server answered with a status that is not success.
  case httpStatus(url: String, code: Int)
  /// The document is larger than the configured maximum.
  case tooLarge(url: String, limit: Int64, announced: Int64?)
  /// More redirects than the configured maximum.
  case tooManyRedirects(url: String, limit: Int)
  /// A redirect led back to a URL already visited.
  case redirectLoop(url: String)
  /// A redirect from https to plain http, or to a scheme that is never followed (such as file).
  case insecureRedirect(from: String, to: String)
  /// The connection ended before the whole document arrived.
  case connectionLost(url: String, received: Int64, expected: Int64?)
  /// What came back is not valid HTTP: a malformed or contradictory header, or another protocol.
  case invalidResponse(url: String, detail: String)
  /// The TLS handshake or certificate check failed.
  case tls(url: String, detail: String)
  /// A local source file does not exist or is not a regular file.
  case fileNotFound(path: String)
  /// Reading or writing a local file failed.
  case fileSystem(path: String, detail: String)
  /// The transfer was cancelled by the caller.
  case cancelled(url: String)
  /// A newer request for the same URL replaced this one.
  case superseded(url: String)
  /// Any other failure, with the underlying description.
  case other(url: String, detail: String)

  /// Whether trying again might succeed (network hiccups, overloaded servers); the rest are final.
  public var isTransient: Bool {
    switch self {
    // A name that does not resolve or a refused connection is an answer, not a hiccup: retrying it only
    // made an offline update wait (3 attempts cost 33 s where curl gives up in 9 ms).
    case .unreachableHost: false
    case .connectionLost: true
    case .timeout(_, let kind, _): kind != .total
    case .httpStatus(_, let code): [408, 425, 429, 500, 502, 503, 504].contains(code)
    default: false
    }
  }
}

extension DownloadError: LocalizedError {
  /// What went wrong, naming the URL or path.
  public var errorDescription: String? {
    switch self {
    case .invalidURL(let text): "“\(text)” is not a valid URL."
    case .unsupportedScheme(let url): "\(url): only https://, http:// on this machine, and file:// are supported."
    case .insecureURL(let url): "\(url) uses plain http to another machine, which anyone on the path can alter."
    case .unreachableHost(let url, let detail): "Could not connect to \(url): \(detail)."
    case .timeout(let url, let kind, let limit):
      switch kind {
      case .connect: "Connecting to \(url) took longer than \(limit.formattedSeconds)."
      case .idle: "\(url) sent nothing for \(limit.formattedSeconds)."
      case .total: "Downloading \(url) took longer than \(limit.formattedSeconds) in all."
      }
    case .httpStatus(let url, let code): "\(url) answered HTTP \(code)."
    case .tooLarge(let url, let limit, let announced):
      if let announced {
        "\(url) is \(announced) bytes, more than the limit of \(limit) bytes."
      } else {
        "\(url) sent more than the limit of \(limit) bytes."
      }
    case .tooManyRedirects(let url, let limit): "\(url) redirected more than \(limit) times."
    case .redirectLoop(let url): "\(url) redirects in a loop."
    case .insecureRedirect(let from, let to): "\(from) redirected to \(to), which is not followed."
    case .connectionLost(let url, let received, let expected):
      if let expected {
        "The connection to \(url) ended after \(received) of \(expected) bytes."
      } else {
        "The connection to \(url) ended after \(received) bytes."
      }
    case .invalidResponse(let url, let detail): "\(url) did not answer with valid HTTP: \(detail)."
    case .tls(let url, let detail): "The secure connection to \(url) failed: \(detail)."
    case .fileNotFound(let path): "\(path) does not exist or is not a regular file."
    case .fileSystem(let path, let detail): "Could not read or write \(path): \(detail)."
    case .cancelled(let url): "The download of \(url) was cancelled."
    case .superseded(let url): "The download of \(url) was replaced by a newer request for the same URL."
    case .other(let url, let detail): "Downloading \(url) failed: \(detail)."
    }
  }

  /// What the user can do about it.
  public var recoverySuggestion: String? {
    switch self {
    case .invalidURL: "Check the address for typos; it should look like https://example.com/hosts.txt."
    case .unsupportedScheme: "Use an https:// URL or a local file path."
    case .insecureURL: "Use the https:// address of the list; plain http is accepted only for 127.0.0.1 and localhost."
    case .unreachableHost: "Check your connection and the host name, then try again."
    case .timeout(_, .total, _): "Try again later, or raise the total time limit for large lists."
    case .timeout: "Check your connection; the server may be overloaded. Try again later."
    case .httpStatus(_, let code) where code == 404 || code == 410:
      "The list has moved or been removed: check the source's URL on its homepage."
    case .httpStatus(_, let code) where code == 401 || code == 403:
      "The server refuses access: check the URL and any credentials it needs."
    case .httpStatus: "The server has a problem; try again later."
    case .tooLarge: "Make sure the URL points to a blocklist, or raise the size limit if it really is that large."
    case .tooManyRedirects, .redirectLoop: "Use the list's final address instead of the redirecting one."
    case .insecureRedirect: "Ask the list's maintainer to serve it over https, or use its final https address."
    case .connectionLost: "Check your connection and try again; the download resumes where the server allows."
    case .invalidResponse:
      "Check the URL's port: another kind of server may be answering there, or something on the path alters the traffic."
    case .tls: "Check the system clock and CA certificates (ca-certificates); the server's certificate may be wrong."
    case .fileNotFound: "Check the path, or give the list's URL instead."
    case .fileSystem: "Check free disk space and the permissions of the temporary directory."
    case .cancelled, .superseded: nil
    case .other: "Try again; if it keeps failing, report the message above."
    }
  }
}

extension Duration {
  /// The duration as seconds with up to one decimal, e.g. "2.5 s".
  var formattedSeconds: String {
    let (seconds, attoseconds) = components
    let tenths = attoseconds / 100_000_000_000_000_000
    return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
  }
}
