import Foundation

/// Why the dashboard refused a request or could not start.
public enum DashboardError: Error, Sendable, Equatable, LocalizedError {
  /// Binding beyond loopback without a token.
  case tokenRequired(host: String)
  /// A token too short to protect anything.
  case weakToken(length: Int)
  /// A token with characters a cookie or a header cannot carry.
  case invalidToken
  /// An update or a test is already running.
  case alreadyRunning(job: String)
  /// A request field is missing or wrong.
  case badRequest(String)
  /// Nothing by that name or id.
  case notFound(String)

  /// What went wrong and what to do, naming the bad value.
  public var errorDescription: String? {
    switch self {
    case .tokenRequired(let host):
      "Listening on \(host) lets other machines reach the dashboard, so it needs an access token. Run once without --token to have one generated (it is printed and saved), or give --token."
    case .weakToken(let length):
      "The access token has \(length) characters; use at least 16 (or leave --token out to have one generated)."
    case .invalidToken:
      "The access token may only hold letters, digits and - . _ ~ (it travels in a header, a cookie and a URL)."
    case .alreadyRunning(let job):
      "An \(job) is already running: wait for it or cancel it first."
    case .badRequest(let message): message
    case .notFound(let message): message
    }
  }
}
