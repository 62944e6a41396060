import Foundation

/// How a Pi-hole's replies are read into sessions and typed errors: pure functions of the status and
/// the body, so they are fuzzed (Fuzz/, target `pihole-json`) without a network.
enum PiholeReply {
  /// Reads the reply to `POST auth`: the session id of an open session (nil when no password is set),
  /// or the error to report. `passwordGiven` tells a missing password from a wrong one.
  static func login(status: Int, body: Data, passwordGiven: Bool) -> Result<String?, PiholeError> {
    let object = (try? JSONValue.object(body)) ?? [:]
    let session = object["session"] as? [String: Any]
    if status == 200, let session, JSONValue.bool(session["valid"]) == true {
      return .success(JSONValue.string(session["sid"]))
    }
    let message = JSONValue.string(session?["message"]) ?? error(in: object)?.message ?? "HTTP \(status)"
    switch status {
    case 401 where message.lowercased().contains("2fa") || JSONValue.bool(session?["totp"]) == true:
      return .failure(.totpRequired(message: message))
    case 401 where !passwordGiven:
      return .failure(.passwordRequired)
    case 401:
      return .failure(.wrongPassword(message: message))
    default:
      return .failure(failure(status: status, object: object))
    }
  }

  /// The typed error for a failed reply's status and body.
  static func failure(status: Int, body: Data) -> PiholeError {
    failure(status: status, object: (try? JSONValue.object(body)) ?? [:])
  }

  /// The typed error for a failed reply's status and decoded body.
  static func failure(status: Int, object: [String: Any]) -> PiholeError {
    let error = error(in: object)
    // Pi-hole v6 answers every failure with an `error` object: a bare status is another server.
    if error == nil && status != 429 {
      return .unexpectedReply(detail: "HTTP \(status) with no Pi-hole error object (is this a Pi-hole v6 web server?)")
    }
    let key = error?.key ?? "http_\(status)"
    let message = error?.message ?? "HTTP \(status)"
    switch (status, key) {
    case (429, "api_seats_exceeded"): return .seatsExceeded(hint: error?.hint)
    case (429, _): return .rateLimited(message: message, hint: error?.hint)
    default: return .api(status: status, key: key, message: message, hint: error?.hint)
    }
  }

  /// Whether a failed write was refused because FTL is reloading its gravity database (read-only for
  /// about two seconds after a gravity run).
  static func isReadOnly(status: Int, body: Data) -> Bool {
    guard status == 400, let error = error(in: (try? JSONValue.object(body)) ?? [:]) else { return false }
    return error.key == "database_error" && error.message.contains("readonly")
  }

  /// The `error` object of a reply: its key, message and hint.
  static func error(in object: [String: Any]) -> (key: String, message: String, hint: String?)? {
    guard let error = object["error"] as? [String: Any] else { return nil }
    return (
      JSONValue.string(error["key"]) ?? "error", JSONValue.string(error["message"]) ?? "",
      JSONValue.string(error["hint"])
    )
  }

  /// The lines of a gravity log: split on `\n` and `\r`, `ESC[K` and other CSI sequences removed, any
  /// other control character dropped, blank lines and a trailing JSON status dropped.
  static func logLines(_ data: Data) -> [String] {
    let text = String(decoding: data, as: UTF8.self)
    let withoutEscapes = text.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
    return withoutEscapes.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { JSONValue.printable(String($0)) }
      .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("{\"") }
  }

  /// Reads the reply to `GET search/NAME`: the rules and adlists that match `name`.
  static func search(_ object: [String: Any], name: String) -> PiholeSearch {
    let search = object["search"] as? [String: Any] ?? [:]
    let domains = (search["domains"] as? [[String: Any]] ?? []).compactMap(JSONValue.domain)
    let gravity = (search["gravity"] as? [[String: Any]] ?? []).compactMap { item -> PiholeSearch.Match? in
      guard let address = JSONValue.string(item["address"]) else { return nil }
      return PiholeSearch.Match(
        address: address, entry: JSONValue.string(item["domain"]) ?? name,
        type: JSONValue.string(item["type"]) ?? "block")
    }
    return PiholeSearch(domains: domains, gravity: gravity)
  }

  /// Reads the replies to `GET info/version`, `GET dns/blocking` and `GET stats/summary`; a reply that is
  /// missing (nil: a fresh install answers 500 for the version) leaves its fields nil.
  static func summary(version: [String: Any]?, blocking: [String: Any]?, stats: [String: Any]) -> PiholeSummary {
    var summary = PiholeSummary()
    if let version {
      let ftl = ((version["version"] as? [String: Any])?["ftl"] as? [String: Any])?["local"] as? [String: Any]
      summary.version = JSONValue.string(ftl?["version"])
    }
    if let blocking { summary.blocking = JSONValue.string(blocking["blocking"]) }
    let queries = stats["queries"] as? [String: Any]
    let gravity = stats["gravity"] as? [String: Any]
    summary.totalQueries = JSONValue.int(queries?["total"])
    summary.blockedQueries = JSONValue.int(queries?["blocked"])
    summary.domainsBeingBlocked = JSONValue.int(gravity?["domains_being_blocked"])
    if let seconds = JSONValue.int(gravity?["last_update"]), seconds > 0 {
      summary.gravityUpdated = Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    return summary
  }
}
