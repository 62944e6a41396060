/// The lines each output format may hold, read strictly: what a renderer writes and nothing else.
///
/// A drop-in is read by a DNS server as configuration: a line of another shape (`include:`,
/// `local-data:` with an address, `conf-file=`, `$INCLUDE`) would be a statement of its own. This reader
/// knows every line the renderer writes (`Renderer`, its header, exceptions and trailer), with names that
/// pass `NameRules.isRenderable`, and names the first line that is not one of them.
public enum OutputGrammar {
  /// One line that is not a statement of the format, with its 1-based number.
  public struct Violation: Sendable, Hashable, CustomStringConvertible {
    /// The line's number.
    public var line: Int
    /// The line, control characters escaped.
    public var text: String

    public var description: String { "line \(line): \(text)" }
  }

  /// The lines of `text` that `format` does not allow, in order (empty: every line is one it allows).
  public static func violations(in text: String, format: OutputFormat) -> [Violation] {
    var found: [Violation] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      if index == lines.count - 1 && line.isEmpty { break }
      if !allows(line, format: format) {
        var bytes = Array(line.utf8)
        let shown = bytes.withUnsafeMutableBufferPointer { Findings.printable(UnsafeBufferPointer($0)) }
        found.append(Violation(line: index + 1, text: shown))
      }
    }
    return found
  }

  /// Whether one line (without its newline) is a statement, header or comment `format` allows.
  public static func allows(_ line: Substring, format: OutputFormat) -> Bool {
    if line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return false }
    if line.isEmpty { return false }
    if line.hasPrefix(format.commentPrefix) { return true }
    switch format {
    case .hosts:
      let words = line.split(separator: " ", omittingEmptySubsequences: false)
      return words.count >= 2 && Renderer.isAddress(String(words[0])) && words.dropFirst().allSatisfy(isName)
    case .domains:
      return isName(line)
    case .wildcard:
      return line.hasPrefix("*.") && isName(line.dropFirst(2))
    case .adblock:
      if line == "[Adblock Plus 2.0]" { return true }
      for prefix in ["||*.", "||", "@@||*.", "@@||", "@@|"] where line.hasPrefix(prefix) && line.hasSuffix("^") {
        if isName(line.dropFirst(prefix.count).dropLast()) { return true }
      }
      return false
    case .dnsmasq:
      return allowsDnsmasq(line)
    case .unbound:
      return allowsUnbound(line)
    case .rpz:
      return allowsRPZ(line)
    }
  }

  /// `server=/a/b/…/`, `server=/name/#`, `server=/*.name/` and `server=/*.name/#`.
  static func allowsDnsmasq(_ line: Substring) -> Bool {
    guard line.hasPrefix("server=/") else { return false }
    var body = line.dropFirst("server=/".count)
    let passes = body.hasSuffix("/#")
    if passes { body = body.dropLast(1) }
    guard body.hasSuffix("/") else { return false }
    let names = body.dropLast().split(separator: "/", omittingEmptySubsequences: false)
    if names.count == 1, names[0].hasPrefix("*.") { return isName(names[0].dropFirst(2)) }
    return !names.isEmpty && (!passes || names.count == 1) && names.allSatisfy(isName)
  }

  /// `server:`, `local-zone: "name." always_null|transparent`, `local-data: "name. A 0.0.0.0"` and
  /// `local-data: "name. AAAA ::"`.
  static func allowsUnbound(_ line: Substring) -> Bool {
    if line == "server:" { return true }
    for (prefix, suffixes) in [
      ("local-zone: \"", [".\" always_null", ".\" transparent"]), ("local-data: \"", [". A 0.0.0.0\"", ". AAAA ::\""]),
    ] where line.hasPrefix(prefix) {
      for suffix in suffixes where line.hasSuffix(suffix) && line.count > prefix.count + suffix.count {
        return isName(line.dropFirst(prefix.count).dropLast(suffix.count))
      }
    }
    return false
  }

  /// The zone's `$TTL`, SOA and NS lines, and `[*.]name CNAME .|rpz-passthru.`.
  static func allowsRPZ(_ line: Substring) -> Bool {
    if line == "$TTL 300" || line == "@ IN NS localhost." { return true }
    if line.hasPrefix("@ IN SOA localhost. root.localhost. ") {
      let numbers = line.dropFirst("@ IN SOA localhost. root.localhost. ".count).split(separator: " ")
      return numbers.count == 5 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && UInt32($0) != nil }
    }
    for suffix in [" CNAME .", " CNAME rpz-passthru."] where line.hasSuffix(suffix) {
      let owner = line.dropLast(suffix.count)
      return isName(owner.hasPrefix("*.") ? owner.dropFirst(2) : owner)
    }
    return false
  }

  private static func isName(_ text: Substring) -> Bool { NameRules.isRenderable(String(text)) }
}
