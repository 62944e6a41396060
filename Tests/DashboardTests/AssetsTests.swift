import Testing

@testable import Dashboard

@Suite("Assets")
struct AssetsTests {
  @Test(
    "The script writes data only as text and sends the CSRF header; the stylesheet has dark mode and a phone layout")
  func assets() {
    #expect(!Assets.javascript.contains("innerHTML"))
    #expect(!Assets.javascript.contains("eval("))
    #expect(Assets.javascript.contains("\"X-CSRF-Token\": csrf"))
    #expect(Assets.javascript.contains("new EventSource"))
    #expect(Assets.css.contains("@media (prefers-color-scheme: dark)"))
    #expect(Assets.css.contains("@media (max-width: 40rem)"))
    #expect(Assets.css.contains(":focus-visible"))
  }
}
