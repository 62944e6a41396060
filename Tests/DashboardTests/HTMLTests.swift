import Testing

@testable import Dashboard

@Suite("HTML: escaped by default")
struct HTMLTests {
  @Test("Text and attribute values are escaped; raw markup is not; NUL is replaced")
  func escaping() {
    #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    #expect(HTML.escape("a\0b") == "a\u{FFFD}b")
    let html = HTML()
    html.raw("<p>").text("<script>alert(1)</script>").raw("</p>")
    html.element("li", [("data-x", "\"><b>")], text: "1 < 2")
    #expect(
      html.output == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><li data-x=\"&quot;&gt;&lt;b&gt;\">1 &lt; 2</li>")
  }

  @Test("Random strings never produce a markup character once escaped")
  func property() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("<>&\"'abc \0é/=")
    for _ in 0..<2000 {
      let text = String(
        (0..<Int.random(in: 0..<20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
      let escaped = HTML.escape(text)
      #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
      #expect(!escaped.contains("\0"))
    }
  }
}
