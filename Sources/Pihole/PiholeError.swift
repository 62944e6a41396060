import Foundation

/// What can go wrong talking to a Pi-hole, with the Pi-hole's own words where it gave any.
public enum PiholeError: Error, Sendable, Hashable {
  /// The host is not `pi.hole`, an address, or an http(s) URL.
  case invalidHost(String)
  /// The password was refused.
  case wrongPassword(message: String)
  /// Two-factor authentication is on and a TOTP code is needed (or the one given was refused).
  case totpRequired(message: String)
  /// Too many attempts: the Pi-hole rate-limits logins.
  case rateLimited(message: String, hint: String?)
  /// Every API seat is taken (sessions that were never logged out).
  case seatsExceeded(hint: String?)
  /// A password is needed and none was given.
  case passwordRequired
  /// Any other API error, as `{"error":{key,message,hint}}`.
  case api(status: Int, key: String, message: String, hint: String?)
  /// The request succeeded but some items failed (`processed.errors`).
  case itemsFailed([ItemError])
  /// The Pi-hole could not be reached.
  case unreachable(host: String, detail: String)
  /// The reply was not what the API document describes.
  case unexpectedReply(detail: String)

  /// One item of a batch that failed.
  public struct ItemError: Sendable, Hashable, Codable {
    /// The item (list address or domain).
    public var item: String
    /// Why.
    public var error: String
  }
}

extension PiholeError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .invalidHost(let text): "“\(text)” is not a Pi-hole address."
    case .wrongPassword(let message): "The Pi-hole refused the password (\(message))."
    case .totpRequired(let message): "The Pi-hole needs a two-factor code (\(message))."
    case .rateLimited(let message, _): "The Pi-hole is rate-limiting: \(message)."
    case .seatsExceeded: "Every API seat of the Pi-hole is taken."
    case .passwordRequired: "The Pi-hole needs a password."
    case .api(let status, let key, let message, _): "The Pi-hole answered \(status) \(key): \(message)."
    case .itemsFailed(let errors):
      "The Pi-hole refused \(errors.count) item(s): "
        + errors.prefix(3).map { "\($0.item) (\($0.error))" }.joined(separator: "; ")
    case .unreachable(let host, let detail): "Cannot reach the Pi-hole at \(host): \(detail)."
    case .unexpectedReply(let detail): "The Pi-hole's reply was not understood: \(detail)."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .invalidHost: "Give pi.hole, an address such as 192.168.1.2, or a URL such as http://pi.hole/admin."
    case .wrongPassword: "Check the web interface password (--password-file FILE or PIHOLE_PASSWORD)."
    case .totpRequired: "Pass the current code from your authenticator app with --totp."
    case .rateLimited(_, let hint): hint ?? "Wait a few seconds before trying again."
    case .seatsExceeded(let hint):
      "Log out other API sessions in the web interface (Settings → Web interface / API), or "
        + (hint ?? "increase webserver.api.max_sessions") + "."
    case .passwordRequired: "Give it with --password-file FILE or the PIHOLE_PASSWORD variable, or type it when asked."
    case .api(_, _, _, let hint): hint.map { "Pi-hole says: \($0)." }
    case .itemsFailed(let errors):
      errors.count == 1
        ? "Fix or skip the item named; anything else in the same request was applied."
        : "Fix or skip the items named; anything else in the same request was applied."
    case .unreachable: "Check the address and that the Pi-hole's web server is running."
    case .unexpectedReply: "Check that this is Pi-hole v6 (the v5 API is not supported)."
    }
  }
}
