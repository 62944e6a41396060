/// One source's names as parsed, in line order, repeats included, each with its hash: what
/// `Compiler.Merging.add(_:name:)` inserts into a profile's set, without a set of its own first.
///
/// An update parses each new copy into one of these, checks it, and merges it straight into the profile:
/// every name is hashed once and inserted once (into a set of its own first, then into the profile's,
/// they were inserted twice, a fifth of a first update's work).
public struct ParsedList: Sendable {
  /// The parsed blocks, in line order.
  var blocks: [ParsedNames] = []
  /// The lines before each block.
  var lineOffsets: [Int] = []
  /// What the source's lines held; `unique` and `duplicates` stay zero until the list is merged.
  public internal(set) var report: SourceReport
  /// Lines read.
  public private(set) var lines = 0

  /// An empty list for a source.
  init(report: SourceReport) {
    self.report = report
  }

  /// Names read, repeats included.
  public var names: Int { report.findings.names }

  /// The bytes the names take, repeats included (bounds the bytes of the distinct ones).
  var nameBytes: Int { blocks.reduce(0) { $0 + $1.bytes.count } }

  /// Adds the next block.
  mutating func append(_ block: ParsedNames) {
    report.findings.append(block.findings, lineOffset: lines)
    lineOffsets.append(lines)
    lines += block.lineCount
    blocks.append(block)
  }
}
