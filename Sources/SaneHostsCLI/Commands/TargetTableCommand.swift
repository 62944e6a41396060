import Apply
import ArgumentParser
import Foundation
import Traffic

/// `sanehosts generate-target-table`: `docs/targets.md`, the table of targets as Markdown, made from the
/// targets themselves (hidden: a test checks the committed file is its output).
struct TargetTableCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate-target-table", abstract: "Print the table of apply targets as Markdown.",
    shouldDisplay: false)

  func run() { Terminal.writeOutput(Self.document) }

  /// The whole document: the table, then what each target still lets through.
  static var document: String {
    var text = """
      # Apply targets

      Generated from the table of targets in `Sources/Apply/Targets/` by `sanehosts generate-target-table`;
      a test keeps this file equal to its output. `sanehosts apply --help` reads the same table.

      | target | writes | default path | blocks | checked by | `--reload` runs | query log (`hits --log`) |
      |---|---|---|---|---|---|---|

      """
    for target in Target.all {
      let path = target.server.map { "`\($0.defaultOutput)`" } ?? "`/etc/hosts` (`--hosts-file`)"
      let checker = target.server.map { "`\($0.checker)` (\($0.checkerPackage))" } ?? "-"
      let reload = target.server.map { "`\($0.defaultReload().command)`" } ?? "`--flush`: the running DNS caches"
      text += "| `\(target.name)` | \(cell(target.summary)) | \(path) | "
      let log = target.server?.queryLog.map { "`\($0.rawValue)`" } ?? "-"
      text += "\(target.capabilities.phrases.joined(separator: ", ")) | \(checker) | \(reload) | \(log) |\n"
    }
    text += "\n## Loading a drop-in (once, in the server's own configuration)\n\n"
    for server in ServerTarget.allCases {
      let lines = server.instructions(output: server.defaultOutput).split(separator: "\n")
      text += "- `\(server.rawValue)`: " + lines.map { "`\($0)`" }.joined(separator: " and ") + "\n"
    }
    text += "\n## What the server still answers for a blocked name (`apply` says it)\n\n"
    for server in ServerTarget.allCases {
      text +=
        "- `\(server.rawValue)`: " + (server.leaks.isEmpty ? "nothing found." : server.leaks.joined(separator: " "))
        + "\n"
    }
    return text
  }

  /// `text` safe in a table cell.
  private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
