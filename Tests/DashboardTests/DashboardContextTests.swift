import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import Dashboard

@Suite("Request bodies: JSON or a plain form")
struct DashboardContextTests {
  @Test("Repeated form keys become array keys; single ones stay")
  func repeatedKeys() {
    #expect(BodyDecoder.arrayingRepeatedKeys("a=1&a=2&b=3") == "a[]=1&a[]=2&b=3")
    #expect(BodyDecoder.arrayingRepeatedKeys("a=1&b=&c") == "a=1&b=&c")
    #expect(BodyDecoder.arrayingRepeatedKeys("x[]=1&x[]=2") == "x[]=1&x[]=2")
    #expect(BodyDecoder.arrayingRepeatedKeys("") == "")
  }

  @Test("The same route takes JSON and a URL-encoded form; over 1 MiB is refused")
  func bodies() async throws {
    try await DashboardHarness.with { harness in
      let csrf = harness.dashboard.csrfToken
      try await harness.routes { client async throws in
        let form = try await client.execute(
          uri: "/api/settings", method: .post,
          headers: [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"],
          body: ByteBuffer(string: "csrf=\(csrf)&probe=dns&resolver=127.0.0.1%3A53&timeout=1.5&target=bind"))
        #expect(form.status == .seeOther)
        #expect(try await client.get("/api/settings").json?["resolver"] as? String == "127.0.0.1:53")
        let json = try await client.post(
          "/api/settings", json: #"{"probe":"https","resolver":"","timeout":3,"target":"hosts"}"#, csrf: csrf)
        #expect(json.status == .ok && json.json?["probe"] as? String == "https")
        // Without JavaScript, a test starts from the form: ticked boxes repeat the field.
        let test = try await client.execute(
          uri: "/api/test", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
          body: ByteBuffer(
            string: "csrf=\(csrf)&probe=dns&resolver=127.0.0.1%3A9&timeout=&category=Ads&category=Nope"))
        #expect(test.status == .badRequest && test.text.contains("Unknown category &quot;Nope&quot;"), "\(test.text)")
        let huge = try await client.post(
          "/api/rules", json: #"{"kind":"deny","pattern":"\#(String(repeating: "a", count: 1_100_000))"}"#, csrf: csrf)
        #expect(huge.status == .contentTooLarge)
      }
    }
  }
}
