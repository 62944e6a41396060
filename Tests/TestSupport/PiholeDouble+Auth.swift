import Foundation
import Locking

extension PiholeDouble {
  enum SessionLookup {
    case missing
    case unknown
    case valid(Session)
  }

  /// Finds the session a request carries (header `X-FTL-SID`, header `sid`, query `sid`, or cookie plus
  /// `X-CSRF-TOKEN`) and renews it.
  func lookupSession(_ request: PiholeRequest) -> SessionLookup {
    var candidate: (sid: String, csrf: String?)?
    if let sid = request.header("X-FTL-SID") ?? request.header("sid") ?? request.query["sid"] {
      candidate = (sid, nil)
    } else if let sid = Self.cookie("sid", in: request.header("Cookie")) {
      candidate = (sid, request.header("X-CSRF-TOKEN") ?? "")
    }
    guard let candidate else { return .missing }
    let time = now
    let validity = Double(configuration.validity)
    return state.withLock { state in
      guard
        let index = state.sessions.firstIndex(where: {
          $0.sid == candidate.sid && $0.validUntil > time && (candidate.csrf == nil || candidate.csrf == $0.csrf)
        })
      else { return .unknown }
      state.sessions[index].validUntil = time + validity
      state.sessions[index].lastActive = time
      return .valid(state.sessions[index])
    }
  }

  /// Nil when the request may proceed, else the 401 reply.
  func authorize(_ request: PiholeRequest) -> PiholeReply? {
    guard configuration.password != nil else { return nil }
    if case .valid = lookupSession(request) { return nil }
    return .error(401, "unauthorized", "Unauthorized")
  }

  func login(_ request: PiholeRequest) -> PiholeReply {
    guard let password = configuration.password else { return noPasswordReply }
    let object: [String: Any]
    switch jsonBody(request) {
    case .failure(let error): return error.reply
    case .success(let value):
      guard let dictionary = value as? [String: Any] else {
        return .error(400, "bad_request", "No password found in JSON payload")
      }
      object = dictionary
    }
    guard let given = object["password"] else {
      return .error(400, "bad_request", "No password found in JSON payload")
    }
    guard let given = given as? String else {
      return .error(400, "bad_request", "Field password has to be of type 'string'")
    }
    if configuration.totp != nil, object["totp"] == nil {
      return .error(400, "bad_request", "No 2FA token found in JSON payload")
    }
    let time = now
    let limit = configuration.loginAttemptsPerSecond
    let limited = state.withLock { state in
      state.loginAttempts = state.loginAttempts.filter { $0 > time - 1 }
      state.loginAttempts.append(time)
      return state.loginAttempts.count > limit
    }
    if limited { return .error(429, "rate_limiting", "Rate-limiting login attempts") }
    guard given == password else {
      return .json(401, [("session", Self.invalidSession("password incorrect"))])
    }
    if let totp = configuration.totp {
      guard (object["totp"] as? NSNumber)?.intValue == totp, !(object["totp"] is String) else {
        return .error(401, "unauthorized", "Invalid 2FA token")
      }
    }
    let validity = configuration.validity
    let maxSessions = configuration.maxSessions
    let created: Session? = state.withLock { state in
      guard state.sessions.filter({ $0.validUntil > time }).count < maxSessions else { return nil }
      state.sessions.removeAll { $0.validUntil <= time }
      let session = Session(
        id: state.nextSessionID, sid: Self.token(), csrf: Self.token(), validUntil: time + Double(validity),
        loginAt: time, lastActive: time)
      state.nextSessionID += 1
      state.sessions.append(session)
      return session
    }
    guard let created else {
      return .error(429, "api_seats_exceeded", "API seats exceeded", hint: "increase webserver.api.max_sessions")
    }
    return .json(
      200, [("session", validSession(created, message: "correct password"))],
      headers: [("Set-Cookie", "sid=\(created.sid); SameSite=Lax; Path=/; Max-Age=\(validity); HttpOnly")])
  }

  func currentSession(_ request: PiholeRequest) -> PiholeReply {
    guard configuration.password != nil else { return noPasswordReply }
    switch lookupSession(request) {
    case .missing: return .json(401, [("session", Self.invalidSession("no SID provided"))])
    case .unknown: return .json(401, [("session", Self.invalidSession("session unknown"))])
    case .valid(let session): return .json(200, [("session", validSession(session, message: nil))])
    }
  }

  func logout(_ request: PiholeRequest) -> PiholeReply {
    guard configuration.password != nil, case .valid(let session) = lookupSession(request) else {
      return .error(401, "unauthorized", "Unauthorized")
    }
    state.withLock { $0.sessions.removeAll { $0.id == session.id } }
    return .noContent
  }

  func sessionList(_ request: PiholeRequest) -> PiholeReply {
    var current: Int?
    if case .valid(let session) = lookupSession(request) { current = session.id }
    let time = now
    let sessions = state.withLock { $0.sessions.filter { $0.validUntil > time } }
    let items: [PiholeJSON] = sessions.map { session in
      .object([
        ("id", .int(session.id)), ("current_session", .bool(session.id == current)), ("valid", .bool(true)),
        ("tls", .object([("login", .bool(false)), ("mixed", .bool(false))])),
        ("app", .bool(false)), ("cli", .bool(false)), ("login_at", .int(Int(session.loginAt))),
        ("last_active", .int(Int(session.lastActive))), ("valid_until", .int(Int(session.validUntil))),
        ("remote_addr", .string("127.0.0.1")), ("user_agent", .null), ("x_forwarded_for", .null),
      ])
    }
    return .json(200, [("sessions", .array(items))])
  }

  func deleteSession(_ id: Int) -> PiholeReply {
    let removed = state.withLock { state in
      let before = state.sessions.count
      state.sessions.removeAll { $0.id == id }
      return state.sessions.count < before
    }
    return removed ? .noContent : .error(404, "not_found", "Session not found", hint: "/api/auth/session/\(id)")
  }

  private var noPasswordReply: PiholeReply {
    .json(
      200,
      [
        (
          "session",
          .object([
            ("valid", .bool(true)), ("totp", .bool(false)), ("sid", .null), ("validity", .int(-1)),
            ("message", .string("no password set")),
          ])
        )
      ])
  }

  private func validSession(_ session: Session, message: String?) -> PiholeJSON {
    .object([
      ("valid", .bool(true)), ("totp", .bool(configuration.totp != nil)), ("sid", .string(session.sid)),
      ("csrf", .string(session.csrf)), ("validity", .int(configuration.validity)), ("message", .nullable(message)),
    ])
  }

  /// An invalid session: `csrf` is absent, not null, as the daemon writes it.
  private static func invalidSession(_ message: String) -> PiholeJSON {
    .object([
      ("valid", .bool(false)), ("totp", .bool(false)), ("sid", .null), ("validity", .int(-1)),
      ("message", .nullable(message)),
    ])
  }

  /// 16 random bytes in base64, like the daemon's SIDs: they contain `+`, `/` and `=`.
  private static func token() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    // Make sure the characters that need percent-encoding in a query really occur.
    bytes[0] = 0xFB
    bytes[1] = 0xFF
    return Data(bytes).base64EncodedString()
  }

  static func cookie(_ name: String, in header: String?) -> String? {
    guard let header else { return nil }
    for part in header.split(separator: ";") {
      let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
      if pair.count == 2, pair[0] == name { return String(pair[1]) }
    }
    return nil
  }
}
