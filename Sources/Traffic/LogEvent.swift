import Foundation

/// What a query log line tells: a query asked, or a query the server answered with a block.
public enum LogEvent: Sendable, Hashable {
  /// A client asked for `name` (record `type`); `client` is its address.
  case query(time: Date?, name: String, type: String, client: String?)
  /// The server blocked a query for `name` itself (its own words: dnsmasq's `config`/hosts-file answer,
  /// unbound's local action, BIND's RPZ rewrite): what `hits` checks the profile's answer against. `via`
  /// is the name the server's policy matched when it is another (BIND: the target of a CNAME of `name`).
  case blocked(time: Date?, name: String, client: String?, via: String? = nil)

  /// When the line was written, if its time could be read.
  public var time: Date? {
    switch self {
    case .query(let time, _, _, _), .blocked(let time, _, _, _): time
    }
  }
}

/// Lines of a log that could not be read: counted per reason, the first few kept with their line numbers.
public struct LogFindings: Sendable, Hashable, Codable {
  /// A line kept as an example.
  public struct Sample: Sendable, Hashable, Codable {
    /// The file it is in.
    public var file: String
    /// Its number, from 1.
    public var line: Int
    /// The line, shortened to 120 characters, bytes outside printable ASCII escaped.
    public var text: String
  }

  /// A file that could not be read to its end (a truncated or corrupt gzip): its queries past that point
  /// are not counted, and the report says so.
  public struct DamagedFile: Sendable, Hashable, Codable {
    /// The file.
    public var file: String
    /// What is wrong with it.
    public var reason: String
    /// The lines read (and counted) before the damage.
    public var linesRead: Int
    /// The bytes of text read before the damage.
    public var bytesRead: Int

    /// One sentence: the file, the damage and how far it was read.
    public var description: String {
      "\(file): \(reason); read \(linesRead) line\(linesRead == 1 ? "" : "s") (\(bytesRead) bytes) before it, the queries after are not counted"
    }
  }

  /// No line read yet.
  public init() {}

  /// Files that could not be read to their end.
  public var damagedFiles: [DamagedFile] = []
  /// Files with lines but not one query or block of the server named (another server's log?), each with
  /// the kind whose parser does read it, when one does.
  public var unrecognizedFiles: [UnrecognizedFile] = []

  /// A file that is not the named server's log.
  public struct UnrecognizedFile: Sendable, Hashable, Codable {
    /// The file.
    public var file: String
    /// The server named for it.
    public var kind: String
    /// A server whose log format it has, when one fits.
    public var looksLike: String?

    /// One sentence, with what to give instead.
    public var description: String {
      let head = "no line of \(file) reads as \(kind)'s query log"
      guard let looksLike else { return head + " (see `sanehosts hits --help` for what each server must log)" }
      return head + "; it reads as \(looksLike)'s: --log \(looksLike):\(file)"
    }
  }

  /// Lines read.
  public var lines = 0
  /// Lines of the server's that say nothing of a query (start-up, statistics, forwarding).
  public var otherLines = 0
  /// Lines skipped, per reason.
  public var skipped: [String: Int] = [:]
  /// Up to five lines per reason.
  public var samples: [String: [Sample]] = [:]

  /// All skipped lines.
  public var skippedLines: Int { skipped.values.reduce(0, +) }

  /// Counts a skipped line under `reason`, keeping it as a sample while there are fewer than five.
  public mutating func skip(_ reason: String, file: String, line: Int, text: UnsafeBufferPointer<UInt8>) {
    skipped[reason, default: 0] += 1
    guard samples[reason, default: []].count < 5 else { return }
    var shown = ""
    for byte in text.prefix(120) {
      shown += byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : Self.escape(byte)
    }
    samples[reason, default: []].append(Sample(file: file, line: line, text: shown))
  }

  /// A byte outside printable ASCII as `\x00` (always two hex digits).
  static func escape(_ byte: UInt8) -> String {
    let hex = String(byte, radix: 16)
    return "\\x" + (hex.count == 1 ? "0" + hex : hex)
  }

  /// Adds what another file's reading found.
  public mutating func add(_ other: LogFindings) {
    damagedFiles += other.damagedFiles
    unrecognizedFiles += other.unrecognizedFiles
    lines += other.lines
    otherLines += other.otherLines
    skipped.merge(other.skipped, uniquingKeysWith: +)
    for (reason, more) in other.samples {
      samples[reason, default: []] = Array((samples[reason, default: []] + more).prefix(5))
    }
  }
}
