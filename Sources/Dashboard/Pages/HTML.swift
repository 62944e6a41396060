/// A page being written: text is escaped unless written with `raw`; calls chain (`html.raw("<p>").text(name)`).
///
/// Every name that comes from a list, a user or the network goes through `text` or `attribute`, so a
/// hostile list (`<script>` in a comment, a name with quotes) renders as inert text.
final class HTML {
  /// The markup so far.
  private(set) var output = ""

  /// An empty fragment.
  init() {}

  /// Escapes `&`, `<`, `>`, `"` and `'` for text or a quoted attribute value.
  static func escape(_ text: some StringProtocol) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\0": out += "\u{FFFD}"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// Appends markup as is (only for markup written here, never for data).
  @discardableResult
  func raw(_ markup: String) -> HTML {
    output += markup
    return self
  }

  /// Appends text, escaped.
  @discardableResult
  func text(_ text: some StringProtocol) -> HTML {
    output += Self.escape(text)
    return self
  }

  /// Appends another fragment.
  func append(_ other: HTML) { output += other.output }

  /// Appends `<tag attributes>escaped text</tag>`.
  func element(_ tag: String, _ attributes: [(String, String)] = [], text: some StringProtocol) {
    output += "<\(tag)\(Self.attributes(attributes))>\(Self.escape(text))</\(tag)>"
  }

  /// ` name="escaped value"` for each pair.
  static func attributes(_ pairs: [(String, String)]) -> String {
    pairs.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
  }
}
