import Apply
import Foundation
import Testing
import Traffic

@Suite("sanehosts generate-target-table")
struct TargetTableCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test("docs/targets.md is the table of targets as the code has it (regenerate it with the command)")
  func committed() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let generated = try await cli.ok("generate-target-table")
    let committed = try String(contentsOf: Self.root.appending(path: "docs/targets.md"), encoding: .utf8)
    #expect(
      generated == committed,
      "docs/targets.md is out of date: run `.build/debug/sanehosts generate-target-table > docs/targets.md`")
    for name in ["hosts", "dnsmasq", "dnsmasq-hosts", "unbound", "bind", "pdns-recursor", "knot-resolver"] {
      #expect(generated.contains("| `\(name)` |"), "\(name)")
    }
    // Hidden: not a user's command.
    let help = try await cli.ok("--help")
    #expect(!help.contains("generate-target-table"))
  }

  @Test(
    "No guide keeps a list of its own of the servers a drop-in is written for: it names them all or links targets.md")
  func noHandWrittenLists() throws {
    // Each server by every name the docs use for it: the target, the program, the server's own name.
    let servers = Dictionary(grouping: ServerTarget.allCases, by: \.kind.program).mapValues { targets in
      Set(targets.flatMap { [$0.rawValue, $0.server, $0.kind.program] })
    }
    let folder = Self.root.appending(path: "docs")
    let guides = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
      .filter { $0 != "targets.md" }.map { folder.appending(path: $0) }
    var partial: [String] = []
    for file in guides + [Self.root.appending(path: "README.md"), Self.root.appending(path: "ARCHITECTURE.md")] {
      let text = try String(contentsOf: file, encoding: .utf8)
      for line in text.split(separator: "\n") where line.lowercased().contains("drop-in") {
        guard !line.contains("targets.md") else { continue }
        let named = servers.filter { _, names in names.contains { Self.names(line, $0) } }.count
        if named >= 2 && named < servers.count { partial.append("\(file.lastPathComponent): \(line.prefix(80))") }
      }
    }
    #expect(partial.isEmpty, "\(partial)")
    // The servers hits reads come from the same table.
    #expect(ServerTarget.writing(.dnsmasq).map(\.rawValue) == ["dnsmasq", "dnsmasq-hosts"])
    #expect(QueryLogFormat.allCases.allSatisfy { !ServerTarget.writing($0).isEmpty })
  }

  /// Whether `line` names `word` as a word of its own.
  static func names(_ line: Substring, _ word: String) -> Bool {
    var rest = line[...]
    while let range = rest.range(of: word) {
      let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
      let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
      let isWordPart = { (character: Character?) in character.map { $0.isLetter || $0 == "-" || $0 == "_" } ?? false }
      if !isWordPart(before) && !isWordPart(after) { return true }
      rest = line[range.upperBound...]
    }
    return false
  }
}
