import Blocklists
import Foundation
import Testing

/// The table "What each target blocks: rule kinds and record types" of docs/applying.md is checked
/// against the renderer: each cell's code is what the format writes for that rule.
@Suite("docs/applying.md: the rule kind × target table is what the renderer writes")
struct TargetBlocksTableTests {
  static let readme: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return try? String(contentsOf: root.appending(path: "docs/applying.md"), encoding: .utf8)
  }()

  /// The code spans of a table cell, `\|` read as `|`.
  static func codes(_ cell: Substring) -> [String] {
    let text = cell.replacingOccurrences(of: "\\|", with: "|")
    return text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  @Test("Each row's exception, in adblock, dnsmasq, unbound and RPZ, is the renderer's")
  func table() throws {
    let readme = try #require(Self.readme, "docs/applying.md beside the package")
    let rows: [(String, Exceptions.Scope)] = [("| `=a.x`", .exact), ("| `a.x`", .subtree), ("| `*.a.x`", .below)]
    let columns: [(Int, OutputFormat)] = [(1, .adblock), (3, .dnsmasq), (4, .unbound), (5, .rpz)]
    for (prefix, scope) in rows {
      let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix(prefix + " (") }, "\(prefix)")
      // Split on `|` outside backslash escapes.
      var cells: [Substring] = []
      var start = line.startIndex
      var index = line.startIndex
      while index < line.endIndex {
        if line[index] == "|" && (index == line.startIndex || line[line.index(before: index)] != "\\") {
          cells.append(line[start..<index])
          start = line.index(after: index)
        }
        index = line.index(after: index)
      }
      let exception = Exceptions.Exception(name: "a.x", scope: scope, rule: "")
      for (column, format) in columns {
        let expected = Renderer(format: format).lines(for: exception, ownEntry: scope == .below && format == .rpz)
        let written = Self.codes(cells[column + 1]).map { $0 + "\n" }.joined()
        #expect(written == expected, "\(prefix) \(format): docs/applying.md \(written), renderer \(expected)")
      }
      #expect(cells[3].contains("cannot say it"))
    }
  }
}
