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
}
