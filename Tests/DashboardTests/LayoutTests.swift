import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Testing

@testable import Dashboard

@Suite("Layout")
struct LayoutTests {
  @Test("A page comes with the security headers: HTML type, no framing, no sniffing, a strict CSP")
  func headers() {
    let response = Layout.page(title: "T <x>", path: "/history", csrf: "abc", body: HTML().raw("<p>body</p>"))
    #expect(response.status == .ok)
    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
    #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
    #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
    #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'; script-src 'self'") == true)
  }

  @Test("Ages and dates for people")
  func ages() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(Layout.age(nil, now: now) == "never")
    #expect(Layout.age(now.addingTimeInterval(-30), now: now) == "just now")
    #expect(Layout.age(now.addingTimeInterval(-600), now: now) == "10 min ago")
    #expect(Layout.age(now.addingTimeInterval(-7200), now: now) == "2 h ago")
    #expect(Layout.age(now.addingTimeInterval(-3 * 86_400), now: now) == "3 days ago")
    #expect(Layout.date(now) == "2027-01-15 08:00 UTC")
    #expect(Layout.csrfField("a\"b") == "<input type=\"hidden\" name=\"csrf\" value=\"a&quot;b\">")
  }
}
