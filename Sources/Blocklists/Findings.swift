/// What parsing one source found: counts of every kind of line and every reason for rejection.
///
/// Nothing is dropped silently: each rejected token is counted under its reason, and the first five
/// of each reason are kept with their line numbers as samples.
public struct Findings: Sendable, Hashable, Codable {
  /// A rejected token and where it was.
  public struct Sample: Sendable, Hashable, Codable {
    /// The line number, counted from 1.
    public var line: Int
    /// The rejected text, shortened to 120 characters with non-printable bytes escaped.
    public var text: String

    /// Creates a sample.
    public init(line: Int, text: String) {
      self.line = line
      self.text = text
    }
  }

  /// How many samples are kept per reason.
  public static let samplesPerReason = 5

  /// Lines read, including comments and blank lines.
  public var lines = 0
  /// Comment and blank lines, and structural lines (zone headers, `server:`) that carry no names.
  public var ignoredLines = 0
  /// Valid names found (one line may hold several).
  public var names = 0
  /// Rejected tokens per reason.
  public var rejected: [RejectReason: Int] = [:]
  /// Up to five samples per reason.
  public var samples: [RejectReason: [Sample]] = [:]
  /// Lines per format, as recognised.
  public var formats: [InputFormat: Int] = [:]
  /// What the data looks like when it is plainly not a list (a web page, an archive…), if so.
  public var content: ContentKind?
  /// The list's own exceptions (`@@||name^`): each name, normalised, and its line; they become allow rules
  /// of the profile for the name and its subdomains. At most `exceptionLimit` are kept, the rest counted
  /// as unsupported rules. Nil when there are none (and in findings saved before they were read).
  public var exceptions: [Sample]?
  /// The list's subdomains-only blocks (`||*.name^`, `.name^|`, as AdGuard reads them): each name,
  /// normalised, and its line; they become deny rules `*.name` of the profile, which block the name's
  /// subdomains and never the name itself. At most `exceptionLimit` are kept, the rest counted as
  /// unsupported rules. Nil when there are none.
  public var subdomainBlocks: [Sample]?

  /// The most exceptions kept for one list.
  public static let exceptionLimit = 10_000

  /// Kinds of data that are sometimes served or saved instead of a list.
  public enum ContentKind: String, Sendable, Hashable, Codable {
    case html, gzip, zip, pdf, utf16

    /// What to tell the user.
    public var advice: String {
      switch self {
      case .html: "looks like a web page (HTML), not a list: check the URL points to the raw list"
      case .gzip: "is gzip-compressed: decompress it first, e.g. zcat FILE | sanehosts compile -"
      case .zip: "is a ZIP archive: extract the list from it first"
      case .pdf: "is a PDF document, not a list"
      case .utf16: "is UTF-16 text: convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8 FILE"
      }
    }

    /// Recognises the kind from the first bytes of a source, or from a line of markup.
    static func of(_ start: UnsafeBufferPointer<UInt8>) -> ContentKind? {
      func starts(_ prefix: [UInt8]) -> Bool { start.count >= prefix.count && start.starts(with: prefix) }
      if starts([0x1F, 0x8B]) { return .gzip }
      if starts([0x50, 0x4B, 0x03, 0x04]) { return .zip }
      if starts(Array("%PDF".utf8)) { return .pdf }
      if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) { return .utf16 }
      let lowered = start.prefix(16).map { $0 | 0x20 }
      if lowered.starts(with: Array("<!doctype html".utf8)) || lowered.starts(with: Array("<html".utf8)) {
        return .html
      }
      return nil
    }
  }

  /// Creates empty findings.
  public init() {}

  /// All rejected tokens.
  public var totalRejected: Int { rejected.values.reduce(0, +) }

  /// The format most lines were in, if any line held names.
  public var dominantFormat: InputFormat? {
    formats.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key
  }

  /// Counts a rejection and keeps a sample while fewer than five are kept for the reason.
  mutating func reject(_ reason: RejectReason, line: Int, text: UnsafeBufferPointer<UInt8>) {
    rejected[reason, default: 0] += 1
    if samples[reason, default: []].count < Self.samplesPerReason {
      samples[reason, default: []].append(Sample(line: line, text: Self.printable(text)))
    }
  }

  /// Keeps a rule of the list's own (an exception, `exceptions`, or a subdomains-only block,
  /// `subdomainBlocks`); false (counted as an unsupported rule) past `exceptionLimit`.
  mutating func keep(_ name: String, line: Int, in rules: WritableKeyPath<Findings, [Sample]?>) -> Bool {
    guard (self[keyPath: rules]?.count ?? 0) < Self.exceptionLimit else {
      rejected[.unsupportedRule, default: 0] += 1
      return false
    }
    if self[keyPath: rules] == nil { self[keyPath: rules] = [] }
    self[keyPath: rules]!.append(Sample(line: line, text: name))
    return true
  }

  /// Adds the findings of a later block of the same source, whose line numbers start after `lineOffset`.
  mutating func append(_ other: Findings, lineOffset: Int) {
    func merge(_ mine: inout [Sample]?, _ more: [Sample]?) {
      guard let more else { return }
      let room = Self.exceptionLimit - (mine?.count ?? 0)
      mine = (mine ?? []) + more.prefix(room).map { Sample(line: $0.line + lineOffset, text: $0.text) }
      if more.count > room { rejected[.unsupportedRule, default: 0] += more.count - room }
    }
    merge(&exceptions, other.exceptions)
    merge(&subdomainBlocks, other.subdomainBlocks)
    if content == nil, lines == 0 { content = other.content }
    lines += other.lines
    ignoredLines += other.ignoredLines
    names += other.names
    for (reason, count) in other.rejected { rejected[reason, default: 0] += count }
    for (format, count) in other.formats { formats[format, default: 0] += count }
    for (reason, more) in other.samples {
      let room = Self.samplesPerReason - samples[reason, default: []].count
      if room > 0 {
        samples[reason, default: []].append(
          contentsOf: more.prefix(room).map { Sample(line: $0.line + lineOffset, text: $0.text) })
      }
    }
  }

  /// Text safe to show: at most 120 characters, control and non-UTF-8 bytes escaped as `\xNN`.
  static func printable(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let limit = 120
    let prefix = UnsafeBufferPointer(rebasing: bytes.prefix(limit * 4))
    var text = ""
    var iterator = prefix.makeIterator()
    var decoder = UTF8()
    var count = 0
    decoding: while text.unicodeScalars.count < limit {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        count += UTF8.width(scalar)
        if scalar.value < 0x20 || scalar.value == 0x7F {
          text += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
        } else {
          text.unicodeScalars.append(scalar)
        }
      case .error:
        text += "\\x??"
        count += 1
        continue
      case .emptyInput:
        break decoding
      }
    }
    if bytes.count > count { text += "…" }
    return text
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
