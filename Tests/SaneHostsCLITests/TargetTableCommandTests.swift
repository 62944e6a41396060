import Foundation
import Testing

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
}
