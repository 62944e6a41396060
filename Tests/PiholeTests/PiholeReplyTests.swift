import Foundation
import Testing

@testable import Pihole

@Suite("Reading Pi-hole sessions and errors")
struct PiholeReplyTests {
  @Test("Errors map to their cases: seats, rate limits, the rest with key and hint")
  func errors() {
    let seats = PiholeReply.failure(
      status: 429,
      object: [
        "error": [
          "key": "api_seats_exceeded", "message": "API seats exceeded", "hint": "increase webserver.api.max_sessions",
        ]
      ])
    #expect(seats == .seatsExceeded(hint: "increase webserver.api.max_sessions"))
    #expect(seats.recoverySuggestion?.contains("max_sessions") == true)
    let limited = PiholeReply.failure(
      status: 429,
      object: ["error": ["key": "rate_limiting", "message": "Rate-limiting login attempts", "hint": NSNull()]])
    #expect(limited == .rateLimited(message: "Rate-limiting login attempts", hint: nil))
    let notFound = PiholeReply.failure(
      status: 404, body: Data(#"{"error":{"key":"not_found","message":"Not found","hint":"/api/nope"}}"#.utf8))
    #expect(notFound == .api(status: 404, key: "not_found", message: "Not found", hint: "/api/nope"))
    // Pi-hole v6 answers every failure with an error object: a bare status is another server (was "HTTP 501").
    #expect(
      PiholeReply.failure(status: 501, body: Data("<html>Not Implemented</html>".utf8))
        == .unexpectedReply(detail: "HTTP 501 with no Pi-hole error object (is this a Pi-hole v6 web server?)"))
    #expect(
      PiholeReply.isReadOnly(
        status: 400,
        body: Data(#"{"error":{"key":"database_error","message":"attempt to write a readonly database"}}"#.utf8)))
    #expect(!PiholeReply.isReadOnly(status: 400, body: Data(#"{"error":{"key":"bad_request","message":"x"}}"#.utf8)))
  }

  static func login(_ status: Int, _ body: String, password: Bool = true) -> Result<String?, PiholeError> {
    PiholeReply.login(status: status, body: Data(body.utf8), passwordGiven: password)
  }

  @Test("A valid session gives its id; no password set gives an open session without one")
  func openSessions() throws {
    #expect(
      try Self.login(200, #"{"session":{"valid":true,"totp":false,"sid":"a+b/c=","validity":300}}"#).get() == "a+b/c=")
    #expect(try Self.login(200, #"{"session":{"valid":true,"totp":false,"sid":null,"validity":-1}}"#).get() == nil)
  }

  @Test("Refused logins are told apart: 2FA, no password given, a wrong one, rate limiting, anything else")
  func refusals() {
    let wrong = #"{"session":{"valid":false,"totp":false,"sid":null,"message":"password incorrect"}}"#
    #expect(Self.login(401, wrong) == .failure(.wrongPassword(message: "password incorrect")))
    #expect(Self.login(401, wrong, password: false) == .failure(.passwordRequired))
    let totp = #"{"session":{"valid":false,"totp":true,"sid":null,"message":"no 2FA token found"}}"#
    #expect(Self.login(401, totp) == .failure(.totpRequired(message: "no 2FA token found")))
    let limited = #"{"error":{"key":"rate_limiting","message":"Rate-limiting login attempts","hint":null}}"#
    #expect(Self.login(429, limited) == .failure(.rateLimited(message: "Rate-limiting login attempts", hint: nil)))
    // A 200 that is not a valid session, and a body that is not JSON at all, are errors, not sessions.
    #expect(Self.login(200, #"{"session":{"valid":"yes","sid":"x"}}"#) != .success("x"))
    #expect(
      Self.login(500, "\u{0}\u{1}garbage")
        == .failure(
          .unexpectedReply(detail: "HTTP 500 with no Pi-hole error object (is this a Pi-hole v6 web server?)")))
  }
}
