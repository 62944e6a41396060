import ArgumentParser
import Foundation

/// `sanehosts generate-manual`: one man page (roff) with every command and subcommand's full help, for
/// `scripts/install.sh` (hidden: not a user's command).
struct ManualCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate-manual", abstract: "Print the man page: every command's help, as roff.",
    shouldDisplay: false)

  @Option(help: "The date on the page (YYYY-MM-DD; default: today, UTC).") var date: String?

  func run() throws {
    Terminal.writeOutput(Self.page(date: date ?? Self.today()))
  }

  /// Every visible command under `type`, depth first, with its words (`["sources", "add"]`).
  static func commands(under type: any ParsableCommand.Type, path: [String] = []) -> [(
    path: [String], type: any ParsableCommand.Type
  )] {
    var result: [(path: [String], type: any ParsableCommand.Type)] = []
    for child in type.configuration.subcommands where child.configuration.shouldDisplay {
      let name = child.configuration.commandName ?? String(describing: child).lowercased()
      result.append((path + [name], child))
      result += commands(under: child, path: path + [name])
    }
    return result
  }

  /// The whole page.
  static func page(date: String) -> String {
    var out = """
      .TH SANEHOSTS 1 "\(date)" "sanehosts \(SaneHosts.version)" "User Commands"
      .SH NAME
      sanehosts \\- \(escaped(SaneHosts.configuration.abstract))
      .SH DESCRIPTION
      .nf
      \(escaped(SaneHosts.helpMessage(columns: 100)))
      .fi
      .SH COMMANDS

      """
    for (path, type) in commands(under: SaneHosts.self) {
      out += ".SS \"sanehosts \(path.joined(separator: " "))\"\n.nf\n"
      out += escaped(SaneHosts.helpMessage(for: type, columns: 100)) + "\n.fi\n"
    }
    out += reference
    out += ".SH SEE ALSO\nREADME.md and the guides in docs/ of the project, and `sanehosts help COMMAND`.\n"
    return out
  }

  /// Text roff shows as it is: backslashes doubled, a line starting with `.` or `'` guarded, and each
  /// character beyond ASCII (“ ” − …) as its `\[uXXXX]` escape, which every roff reads.
  static func escaped(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var out = ""
      for scalar in line.unicodeScalars {
        if scalar == "\\" {
          out += "\\\\"
        } else if scalar.value > 0x7E || (scalar.value < 0x20 && scalar != "\t") {
          out += "\\[u" + String(format: "%04X", scalar.value) + "]"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
      return out.hasPrefix(".") || out.hasPrefix("'") ? "\\&" + out : out
    }.joined(separator: "\n")
  }

  static func today() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }
}
