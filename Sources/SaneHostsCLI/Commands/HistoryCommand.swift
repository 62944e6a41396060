import ArgumentParser
import BlockerTest
import Foundation
import Store

/// `sanehosts history`: the saved blocker tests.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "List, show and compare saved blocker tests.",
    subcommands: [List.self, Show.self, Diff.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The saved runs, newest first.")
    @OptionGroup var store: StoreOptions
    @Option(help: "How many runs to list.") var limit = 20
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let history = History(store: try store.open())
      let runs = try history.store.testRuns(limit: limit)
      if printing.json {
        struct Row: Encodable {
          var id: Int64?, startedAt: Date, probe: String, target: String, milliseconds: Int
          var score: Score
          var scoreWarning: String?
        }
        Terminal.writeOutput(
          Text.json(
            runs.map {
              Row(
                id: $0.id, startedAt: $0.startedAt, probe: $0.probe, target: $0.target, milliseconds: $0.milliseconds,
                score: Score(blocked: $0.blocked, reachable: $0.reachable, inconclusive: $0.inconclusive),
                scoreWarning: History.scoreWarning(of: $0))
            }))
        return
      }
      guard !runs.isEmpty else {
        Terminal.writeError("No blocker tests yet: run `sanehosts test`.\n")
        return
      }
      let rows = runs.map { run -> [String] in
        let score = Score(blocked: run.blocked, reachable: run.reachable, inconclusive: run.inconclusive)
        return [
          "\(run.id ?? 0)", run.startedAt.formatted(.iso8601), run.probe, run.target,
          score.summary + (History.scoreWarning(of: run).map { "  ⚠ \($0)" } ?? ""),
        ]
      }
      Terminal.writeOutput(Text.table([["ID", "STARTED", "PROBE", "TARGET", "SCORE"]] + rows))
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "One saved run's report (default: the newest).")
    @OptionGroup var store: StoreOptions
    @Argument(help: "The run's id.") var id: Int64?
    @OptionGroup var printing: OutputOptions

    func run() throws {
      let history = History(store: try store.open())
      let report = try HistoryCommand.load(id, history)
      printing.write(report) { report.text(colour: Terminal.isInteractive(.standardOutput)) }
    }
  }

  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "diff",
      abstract: "What changed between two runs: newly blocked, newly reachable (default: the two newest).")
    @OptionGroup var store: StoreOptions
    @Argument(help: "The older run's id, then the newer one's.") var ids: [Int64] = []
    @OptionGroup var printing: OutputOptions

    func validate() throws {
      if ids.count == 1 || ids.count > 2 { throw ValidationError("Give two run ids, or none for the two newest.") }
    }

    func run() throws {
      let history = History(store: try store.open())
      let pair: [Int64]
      if ids.isEmpty {
        let newest = try history.store.testRuns(limit: 2).compactMap(\.id)
        guard newest.count == 2 else {
          throw CommandFailure("There are fewer than two saved runs.", suggestion: "Run `sanehosts test` again first.")
        }
        pair = [newest[1], newest[0]]
      } else {
        pair = ids
      }
      let difference = RunDifference(
        from: try HistoryCommand.load(pair[0], history), to: try HistoryCommand.load(pair[1], history))
      if printing.json {
        Terminal.writeOutput(Text.json(difference))
        return
      }
      var out = "Run #\(pair[0]) → #\(pair[1]): \(difference.scores[0].summary) → \(difference.scores[1].summary)\n"
      if difference.isEmpty { out += "No domain changed.\n" }
      for (title, changes) in [
        ("Newly blocked", difference.newlyBlocked), ("Newly reachable", difference.newlyReachable),
        ("Other changes", difference.other),
      ] where !changes.isEmpty {
        out += "\n\(title) (\(changes.count)):\n"
        for change in changes {
          out +=
            "  \(change.hostname) (\(change.category)): \(change.before?.rawValue ?? "absent") → \(change.after?.rawValue ?? "absent")\n"
        }
      }
      Terminal.writeOutput(out)
    }
  }

  static func load(_ id: Int64?, _ history: History) throws -> TestReport {
    if let id { return try history.load(id) }
    guard let latest = try history.latest() else {
      throw CommandFailure("No blocker tests yet.", suggestion: "Run `sanehosts test`.")
    }
    return latest
  }
}
