import ArgumentParser

/// The `sanehosts` command: blocks ads, trackers and malware at the DNS level.
@main
struct SaneHosts: AsyncParsableCommand {
  static let version = "0.1.0"

  static let configuration = CommandConfiguration(
    commandName: "sanehosts",
    abstract: "Block ads, trackers and malware at the DNS level, and prove that the blocking works.",
    discussion: """
      SaneHosts downloads public blocklists, checks what it gets and merges them into the format your \
      blocker needs. Run `sanehosts help <command>` for details.
      """,
    version: version,
    groupedSubcommands: [
      CommandGroup(
        name: "Sources and profiles",
        subcommands: [
          Status.self, Update.self, SourcesCommand.self, ProfileCommand.self, AllowCommand.self, DenyCommand.self,
          CatalogCommand.self,
        ]),
      CommandGroup(
        name: "Applying",
        subcommands: [ApplyCommand.self, DisableCommand.self, RestoreCommand.self, ScheduleCommand.self]),
      CommandGroup(
        name: "Testing a blocker", subcommands: [TestCommand.self, HistoryCommand.self, RegistryCommand.self]),
      CommandGroup(name: "Pi-hole", subcommands: [PiholeCommand.self]),
      CommandGroup(name: "Dashboard", subcommands: [ServeCommand.self]),
      CommandGroup(name: "Blocklists", subcommands: [Fetch.self, Compile.self]),
    ]
  )

  /// Runs the command line, first giving `apply --verify` its optional value.
  static func main() async {
    await main(optionalValues(Array(CommandLine.arguments.dropFirst())))
  }

  /// `apply … --verify` with no value (last, or before another option) becomes `--verify=system`: the
  /// value is optional, which swift-argument-parser options cannot express.
  static func optionalValues(_ arguments: [String]) -> [String] {
    guard arguments.first == "apply" else { return arguments }
    var result: [String] = []
    for (index, argument) in arguments.enumerated() {
      if argument == "--verify" && (index + 1 == arguments.count || arguments[index + 1].hasPrefix("-")) {
        result.append("--verify=\(ApplyCommand.systemResolver)")
      } else {
        result.append(argument)
      }
    }
    return result
  }
}
