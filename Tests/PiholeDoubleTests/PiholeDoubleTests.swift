import Foundation
import NIOHTTP1
import TestSupport
import Testing

@Suite("Pi-hole double: sessions")
struct PiholeDoubleTests {
  @Test func loginAnswersTheSessionAndACookie() async throws {
    try await PiholeDouble.with { double in
      let reply = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"secret"}"#)
      #expect(reply.status == 200)
      #expect(reply.json["took"] is Double)
      let session = reply.object("session")
      #expect(Set(session.keys) == ["valid", "totp", "sid", "csrf", "validity", "message"])
      #expect(session["valid"] as? Bool == true)
      #expect(session["totp"] as? Bool == false)
      #expect(session["validity"] as? Int == 1800)
      #expect(session["message"] as? String == "correct password")
      let sid = try #require(session["sid"] as? String)
      #expect(sid.contains("+") && sid.contains("/") && sid.contains("="))
      #expect(reply.headers.first(name: "Set-Cookie") == "sid=\(sid); SameSite=Lax; Path=/; Max-Age=1800; HttpOnly")
      #expect(double.activeSessions == 1)
    }
  }

  @Test func wrongPasswordHasNoCsrfKey() async throws {
    try await PiholeDouble.with { double in
      let reply = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"nope"}"#)
      #expect(reply.status == 401)
      let session = reply.object("session")
      #expect(session["valid"] as? Bool == false)
      #expect(session["sid"] is NSNull)
      #expect(session["csrf"] == nil)
      #expect(!reply.text.contains("csrf"))
      #expect(session["validity"] as? Int == -1)
      #expect(session["message"] as? String == "password incorrect")
      #expect(double.activeSessions == 0)
    }
  }

  @Test(
    arguments: [
      ("", "No request body data"),
      ("{", "No valid JSON payload found"),
      ("{}", "No password found in JSON payload"),
      (#"{"password":1}"#, "Field password has to be of type 'string'"),
    ])
  func badLoginRequests(body: String, message: String) async throws {
    try await PiholeDouble.with { double in
      let reply = try await PiholeHTTP.send(double, .POST, "/api/auth", body: body)
      #expect(reply.status == 400)
      #expect(reply.object("error")["key"] as? String == "bad_request")
      #expect(reply.object("error")["message"] as? String == message)
      #expect(reply.json["took"] != nil)
    }
  }

  @Test func moreThanThreeAttemptsInASecondAreRateLimited() async throws {
    let clock = ManualClock()
    try await PiholeDouble.with(.init(password: "secret", clock: clock)) { double in
      for _ in 0..<3 {
        let reply = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"nope"}"#)
        #expect(reply.status == 401)
      }
      let limited = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"secret"}"#)
      #expect(limited.status == 429)
      #expect(limited.text.contains(#"{"key":"rate_limiting","message":"Rate-limiting login attempts","hint":null}"#))

      clock.advance(by: .seconds(1))
      let later = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"secret"}"#)
      #expect(later.status == 200)
    }
  }

  @Test func allSeatsTakenAnswers429() async throws {
    let clock = ManualClock()
    try await PiholeDouble.with(.init(password: "secret", maxSessions: 2, clock: clock)) { double in
      _ = try await PiholeHTTP.login(double)
      _ = try await PiholeHTTP.login(double)
      let reply = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"secret"}"#)
      #expect(reply.status == 429)
      #expect(reply.object("error")["key"] as? String == "api_seats_exceeded")
      #expect(reply.object("error")["hint"] as? String == "increase webserver.api.max_sessions")
      #expect(double.activeSessions == 2)

      clock.advance(by: .seconds(2))
      double.expireAllSessions()
      #expect(double.activeSessions == 0)
      let again = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"secret"}"#)
      #expect(again.status == 200)
    }
  }

  @Test func twoFactorTokenIsRequiredAndChecked() async throws {
    try await PiholeDouble.with(.init(password: "secret", totp: 123_456)) { double in
      let missing = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"secret"}"#)
      #expect(missing.status == 400)
      #expect(missing.object("error")["message"] as? String == "No 2FA token found in JSON payload")
      let wrong = try await PiholeHTTP.send(
        double, .POST, "/api/auth", body: #"{"password":"secret","totp":111111}"#)
      #expect(wrong.status == 401)
      #expect(wrong.object("error")["message"] as? String == "Invalid 2FA token")
      let right = try await PiholeHTTP.send(
        double, .POST, "/api/auth", body: #"{"password":"secret","totp":123456}"#)
      #expect(right.status == 200)
      #expect(right.object("session")["totp"] as? Bool == true)
    }
  }

  @Test func withoutAPasswordEverythingWorksWithoutASession() async throws {
    try await PiholeDouble.with(.init(password: nil)) { double in
      let login = try await PiholeHTTP.send(double, .POST, "/api/auth", body: #"{"password":"anything"}"#)
      #expect(login.status == 200)
      let session = login.object("session")
      #expect(session["valid"] as? Bool == true)
      #expect(session["sid"] is NSNull)
      #expect(session["validity"] as? Int == -1)
      #expect(session["message"] as? String == "no password set")
      #expect(try await PiholeHTTP.send(double, .GET, "/api/lists").status == 200)
      #expect(try await PiholeHTTP.send(double, .GET, "/api/auth").status == 200)
      #expect(try await PiholeHTTP.send(double, .DELETE, "/api/auth").status == 401)
    }
  }

  enum Passing: String, CaseIterable, Sendable {
    case ftlHeader, sidHeader, query, cookie
  }

  @Test(arguments: Passing.allCases)
  func eachWayOfPassingTheSessionWorks(passing: Passing) async throws {
    try await PiholeDouble.with { double in
      let (sid, csrf) = try await PiholeHTTP.login(double)
      let encoded = sid.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let (path, headers): (String, [(String, String)]) =
        switch passing {
        case .ftlHeader: ("/api/lists", [("X-FTL-SID", sid)])
        case .sidHeader: ("/api/lists", [("sid", sid)])
        case .query: ("/api/lists?sid=\(encoded)", [])
        case .cookie: ("/api/lists", [("Cookie", "sid=\(sid)"), ("X-CSRF-TOKEN", csrf)])
        }
      let reply = try await PiholeHTTP.send(double, .GET, path, headers: headers)
      #expect(reply.status == 200)
      #expect(reply.json["lists"] is [Any])
    }
  }

  @Test func requestsWithoutAValidSessionAreUnauthorized() async throws {
    try await PiholeDouble.with { double in
      let (sid, _) = try await PiholeHTTP.login(double)
      let none = try await PiholeHTTP.send(double, .GET, "/api/lists")
      #expect(none.status == 401)
      #expect(none.text.contains(#""error":{"key":"unauthorized","message":"Unauthorized","hint":null}"#))
      // The cookie alone is not enough: it needs the CSRF token.
      #expect(try await PiholeHTTP.send(double, .GET, "/api/lists", headers: [("Cookie", "sid=\(sid)")]).status == 401)
      // An unencoded sid in the query loses its `+`.
      #expect(try await PiholeHTTP.send(double, .GET, "/api/lists?sid=\(sid)").status == 401)
      let missing = try await PiholeHTTP.send(double, .GET, "/api/auth")
      #expect(missing.status == 401)
      #expect(missing.object("session")["message"] as? String == "no SID provided")
    }
  }

  @Test func logoutEndsTheSession() async throws {
    try await PiholeDouble.with { double in
      let (sid, _) = try await PiholeHTTP.login(double)
      let check = try await PiholeHTTP.send(double, .GET, "/api/auth", headers: [("X-FTL-SID", sid)])
      #expect(check.status == 200)
      #expect(check.object("session")["sid"] as? String == sid)
      let logout = try await PiholeHTTP.send(double, .DELETE, "/api/auth", headers: [("X-FTL-SID", sid)])
      #expect(logout.status == 204)
      #expect(logout.bytes.isEmpty)
      #expect(double.activeSessions == 0)
      #expect(try await PiholeHTTP.send(double, .DELETE, "/api/auth", headers: [("X-FTL-SID", sid)]).status == 401)
      #expect(double.requestLog.filter { $0.method == "DELETE" && $0.path == "/api/auth" }.count == 2)
    }
  }

  @Test func sessionsCanBeListedAndEndedById() async throws {
    try await PiholeDouble.with { double in
      let (first, _) = try await PiholeHTTP.login(double)
      _ = try await PiholeHTTP.login(double)
      let list = try await PiholeHTTP.send(double, .GET, "/api/auth/sessions", headers: [("X-FTL-SID", first)])
      #expect(list.status == 200)
      let sessions = try #require(list.json["sessions"] as? [[String: Any]])
      #expect(sessions.count == 2)
      #expect(sessions.filter { $0["current_session"] as? Bool == true }.count == 1)
      let other = try #require(sessions.first { $0["current_session"] as? Bool == false }?["id"] as? Int)
      let end = try await PiholeHTTP.send(
        double, .DELETE, "/api/auth/session/\(other)", headers: [("X-FTL-SID", first)])
      #expect(end.status == 204)
      #expect(double.activeSessions == 1)
    }
  }

  @Test func expiredSessionsAreUnknown() async throws {
    try await PiholeDouble.with { double in
      let (sid, _) = try await PiholeHTTP.login(double)
      double.expireAllSessions()
      #expect(double.activeSessions == 0)
      #expect(try await PiholeHTTP.send(double, .GET, "/api/lists", headers: [("X-FTL-SID", sid)]).status == 401)
      let check = try await PiholeHTTP.send(double, .GET, "/api/auth", headers: [("X-FTL-SID", sid)])
      #expect(check.status == 401)
      #expect(check.object("session")["message"] as? String == "session unknown")
    }
  }

  @Test func unknownPathsAnswer404WithThePathAsHint() async throws {
    try await PiholeDouble.with { double in
      let reply = try await PiholeHTTP.send(double, .GET, "/api/nothing/here?x=1")
      #expect(reply.status == 404)
      #expect(reply.object("error")["key"] as? String == "not_found")
      #expect(reply.object("error")["hint"] as? String == "/api/nothing/here")
    }
  }
}
