import ArgumentParser
import Blocklists
import Foundation

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

      Exit status: 0 on success; 1 on a failure (the message says what to do); a command's own statuses \
      in its help (update 2 and 75, compile 3, test 4; 5 when a place does not block as it should: apply \
      --verify, reapply, allow expire, fleet sync, fleet status); 64 for a usage error (an unknown command \
      or option, a bad value); 130 or 143 when interrupted (Ctrl-C, SIGTERM; serve stops cleanly with 0); \
      141, quietly, when the reader of the output went away (`sanehosts update | head -1`).
      """,
    version: version,
    subcommands: [ManualCommand.self, TargetTableCommand.self],
    groupedSubcommands: [
      CommandGroup(
        name: "Sources and profiles",
        subcommands: [
          StatusCommand.self, UpdateCommand.self, SourcesCommand.self, ProfileCommand.self, AllowCommand.self,
          DenyCommand.self,
          CatalogCommand.self,
        ]),
      CommandGroup(name: "Explaining and curating", subcommands: [WhyCommand.self, HitsCommand.self]),
      CommandGroup(
        name: "Applying",
        subcommands: [
          ApplyCommand.self, ReapplyCommand.self, DisableCommand.self, RestoreCommand.self, ScheduleCommand.self,
          FleetCommand.self,
        ]),
      CommandGroup(
        name: "Testing a blocker", subcommands: [TestCommand.self, HistoryCommand.self, RegistryCommand.self]),
      CommandGroup(name: "Pi-hole", subcommands: [PiholeCommand.self]),
      CommandGroup(name: "Dashboard", subcommands: [ServeCommand.self]),
      CommandGroup(name: "Blocklists", subcommands: [FetchCommand.self, CompileCommand.self]),
    ]
  )

  /// Runs the command line, first giving `apply --verify` its optional value. Synchronous until a command
  /// runs: `--help`, `--version`, completions and usage errors are answered before the concurrency
  /// runtime starts. (An `async` main parks the main thread in `dispatch_main`, whose `pthread_exit`
  /// unwinds the stack through the executable's unwind tables: about 1 MB more resident at every start.)
  static func main() {
    // A write to a pipe whose reader went away fails with EPIPE instead of killing the process, so the
    // command can stop its work and clean up first (see Terminal.pipeClosed).
    signal(SIGPIPE, SIG_IGN)
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let (typed, path) = unknownHelpTopic(arguments) {
      Terminal.writeError("Error: “\(typed)” is not a command of `\(path)`.\nSee `\(path) --help` for the commands.\n")
      Foundation.exit(64)
    }
    if let (typed, suggestion, path) = misspelledSubcommand(arguments) {
      Terminal.writeError(
        "Error: “\(typed)” is not a command of `\(path)`. Did you mean `\(path) \(suggestion)`?\n"
          + "See `\(path) --help` for the commands.\n")
      Foundation.exit(64)
    }
    // An update compiles each copy alone, allocating and freeing tens of MB per source: it gains most
    // from reusing freed memory. (A compile gained nothing and peaked 20 MB higher; the dashboard runs
    // for days and must give memory back.)
    if arguments.first == "update" { MemoryPolicy.keepFreedMemory() }
    var command: any ParsableCommand
    do {
      command = try parseAsRoot(optionalValues(arguments))
    } catch {
      exit(withError: error)
    }
    // `--help`, `help <command>` and the commands with nothing to await run here, as they would in an
    // async main's task; the others as `AsyncParsableCommand.main` runs them: off the main actor, the
    // process exiting when they return.
    guard let asyncCommand = command as? any AsyncParsableCommand else {
      do {
        try command.run()
      } catch {
        finish(error)
      }
      finish(nil)
    }
    Task.detached {
      var command = asyncCommand
      do {
        try await command.run()
      } catch {
        finish(error)
      }
      finish(nil)
    }
    dispatchMain()
  }

  /// Exits as the command ended: quietly with 141 when its output's reader went away (as a process
  /// ended by SIGPIPE: `cat`, `grep` and `git` say nothing then either), else with the error's status
  /// and message, or 0.
  static func finish(_ error: (any Error)?) -> Never {
    if Terminal.pipeClosed { Foundation.exit(141) }
    guard let error else { exit() }
    if case .closedPipe = (error as? CLIError)?.underlying as? CompileError ?? error as? CompileError {
      Foundation.exit(141)
    }
    exit(withError: presented(error))
  }

  /// An error as it is shown, mapped here once for every command: a library's error (a `LocalizedError`)
  /// with its message and what to do (`CLIError`; ArgumentParser would show the message alone), the
  /// command line's own errors and exit codes as they are.
  static func presented(_ error: any Error) -> any Error {
    switch error {
    case is CLIError, is CommandFailure, is ExitCode, is CleanExit, is ValidationError: error
    case let localized as any LocalizedError: CLIError(localized)
    default: error
    }
  }

  /// `sanehosts help WORD…` where a word names no command (ArgumentParser showed the top help with
  /// status 0): the word and the command path it was looked up under.
  static func unknownHelpTopic(_ arguments: [String]) -> (String, String)? {
    guard arguments.first == "help", arguments.count > 1 else { return nil }
    var command: any ParsableCommand.Type = SaneHosts.self
    var path = "sanehosts"
    for word in arguments.dropFirst() where !word.hasPrefix("-") {
      let all = command.configuration.subcommands + command.configuration.groupedSubcommands.flatMap(\.subcommands)
      guard let match = all.first(where: { $0._commandName == word }) else { return (word, path) }
      command = match
      path += " \(word)"
    }
    return nil
  }

  /// The first word that should name a subcommand but names none, with the closest one (at most two
  /// edits away) and the command it belongs to; nil when every word is known or nothing is close.
  static func misspelledSubcommand(_ arguments: [String]) -> (String, String, String)? {
    var command: any ParsableCommand.Type = SaneHosts.self
    var path = "sanehosts"
    for word in arguments {
      if word.hasPrefix("-") { return nil }
      let subcommands = command.configuration.subcommands
      guard !subcommands.isEmpty else { return nil }
      if word == "help" { return nil }
      let names = subcommands.map { ($0, $0._commandName) }
      if let match = names.first(where: { $0.1 == word }) {
        command = match.0
        path += " \(word)"
        continue
      }
      let closest = names.map { ($0.1, distance(word, $0.1)) }.min { $0.1 < $1.1 }
      guard let closest, closest.1 <= 2 else { return nil }
      return (word, closest.0, path)
    }
    return nil
  }

  /// The edit distance between two words (insertions, deletions, substitutions).
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(1, b.count) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
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
