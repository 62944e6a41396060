import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import Dashboard

@Suite("Signing in")
struct LoginPageControllerTests {
  @Test("A wrong token gets the page again (401) saying so; the right one a cookie and the overview")
  func login() async throws {
    let token = "0123456789abcdef0123"
    try await DashboardHarness.with(host: "0.0.0.0", token: token) { harness in
      try await harness.routes { client async throws in
        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        let wrong = try await client.execute(
          uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "token=nope"))
        #expect(wrong.status == .unauthorized && wrong.text.contains("That token is not right."))
        let right = try await client.execute(
          uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "token=\(token)"))
        #expect(right.status == .seeOther && right.headers[.location] == "/")
        #expect(right.headers[.setCookie]?.contains("HttpOnly") == true)
        #expect(!(try await client.get("/login").text.contains("That token is not right.")))
      }
    }
  }
}
