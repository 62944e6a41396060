import ArgumentParser
import Blocklists
import Downloads
import Foundation
import Loading
import Store
import Updates
import UseCases

/// `sanehosts update`: fetch a profile's sources and recompile it.
struct UpdateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "update",
    abstract: "Download a profile's sources (in parallel) and compile the profile.",
    discussion: """
      Each enabled source goes through connect → download → parse → validate → save. An unchanged source \
      costs one conditional request (ETag / Last-Modified) and is not parsed again; --force downloads and \
      parses everything. A source that fails (network, HTTP error, a web page instead of a list, no valid \
      entries, over the size limit) keeps its previous good copy; the others are still saved. The profile \
      is then compiled from every good copy with its allow and deny rules, ready for `sanehosts compile`.

      Ctrl-C or SIGTERM cancels at any phase: transfers stop, temporary files are removed and the store \
      is left exactly as it was. Only one update runs per data directory at a time.

      List health: a new copy with fewer than half the names of the last good one is held back as a \
      suspicious shrink (the previous copy stays in use) until you accept it with `sanehosts sources \
      accept KEY` or update with --accept-shrink (`sanehosts sources diff KEY --held` shows what it would \
      drop). A source whose content has not changed for more than --stale-days days, or whose own header \
      is dated older than that, is reported as stale.

      Progress: live lines on a terminal, plain lines when standard output is not a terminal, one JSON \
      object per event with --json (the last, `health`, lists held and stale sources). Exit status: 0 \
      when at least one source updated or was unchanged, 1 when every source failed or the update could \
      not run, 2 when a source's new copy was held back as a suspicious shrink, 75 when another update is \
      running (see --wait), 130 when cancelled.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @Flag(help: "Download and parse every source even if unchanged.") var force = false
  @Option(name: .shortAndLong, help: "Sources fetched at the same time.") var jobs = 4
  @Flag(help: "Wait for another running update instead of stopping.") var wait = false
  @Option(help: "Give up on a source after this many seconds.") var timeout = 300
  @Option(help: "Refuse sources larger than this many MiB.") var maxSize = 512
  @OptionGroup var printing: OutputOptions
  @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false
  @Flag(help: "Take new copies with fewer than half the names of the last good one instead of holding them back.")
  var acceptShrink = false
  @Option(
    help: "Report a source as stale when its content has not changed, or its header is dated, this many days back.")
  var staleDays = ProfileStatus.defaultStaleDays

  func validate() throws {
    if jobs < 1 || jobs > 32 { throw ValidationError("--jobs must be between 1 and 32, not \(jobs).") }
    if timeout < 1 { throw ValidationError("--timeout must be at least 1 second, not \(timeout).") }
    if maxSize < 1 { throw ValidationError("--max-size must be at least 1 MiB, not \(maxSize).") }
    if printing.json && quiet { throw ValidationError("--json and --quiet cannot be used together.") }
    if staleDays < 1 { throw ValidationError("--stale-days must be at least 1, not \(staleDays).") }
  }

  func run() async throws {
    let store = try store.open()
    var downloads = DownloadConfiguration()
    downloads.totalTimeout = .seconds(timeout)
    downloads.maximumBytes = Int64(maxSize) * 1024 * 1024
    let mode: UpdateRenderer.Mode =
      printing.json ? .json : quiet ? .quiet : Terminal.isInteractive(.standardOutput) ? .live : .plain
    let renderer = UpdateRenderer(mode: mode, width: Terminal.width(.standardOutput))
    let run = ProfileUpdate(
      profile: profile.name,
      options: Updater.Options(force: force, concurrentSources: jobs, waitForLock: wait, acceptShrink: acceptShrink),
      downloads: downloads, staleDays: staleDays)

    let outcome: ProfileUpdate.Outcome
    do {
      outcome = try await run.run(
        in: store, events: { renderer.handle($0) },
        around: { cancelDownloads, update in
          try await Interrupts.cancelling(onSignal: cancelDownloads) {
            try await withThrowingTaskGroup(of: UpdateSummary?.self) { group in
              if mode == .live {
                group.addTask {
                  while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(100))
                    renderer.tick()
                  }
                  return nil
                }
              }
              group.addTask { try await update() }
              defer { group.cancelAll() }
              while let result = try await group.next() {
                if let result { return result }
              }
              throw CancellationError()
            }
          }
        })
    } catch is CancellationError {
      Terminal.writeError("Cancelled; the store is unchanged.\n")
      throw ExitCode(130)
    } catch UpdateError.store(.updateRunning(let pid, let lockFile)) {
      Terminal.writeError("Error: \(CLIError(StoreError.updateRunning(pid: pid, lockFile: lockFile)))\n")
      throw ExitCode(75)
    }

    let (summary, health) = (outcome.summary, outcome.health)
    if mode == .plain || mode == .live {
      Terminal.writeOutput(
        Self.text(summary) + health.stale.map { "! \($0.source) may be stale: \($0.message).\n" }.joined())
    }
    if mode == .json { Terminal.writeOutput(Text.jsonLine(health)) }
    if mode == .quiet {
      for case (let key, .failed(let failure)) in summary.outcomes {
        Terminal.writeError("\(key): \(failure.text(withoutKey: key))\n")
      }
    }
    // A held copy needs a decision, whatever else failed.
    if !health.held.isEmpty { throw ExitCode(2) }
    if summary.run.outcome == .failed { throw ExitCode(1) }
  }

  static func text(_ summary: UpdateSummary) -> String {
    let run = summary.run
    var out = "Profile \(run.profileName) updated in \(String(format: "%.2f", summary.elapsed.secondsValue)) s: "
    out += "\(run.updated) updated, \(run.unchanged) unchanged, \(run.failed) failed. "
    if let compiled = summary.compiled {
      out += "\(compiled.names.counted("name")) blocked\(summary.recompiled ? "" : " (unchanged)").\n"
    } else {
      out += "Nothing compiled yet.\n"
    }
    // One line per failed source: what failed, what to do, and whether the profile lost it.
    let missing = Set(summary.missingCopies)
    for case (let key, .failed(let failure)) in summary.outcomes {
      out += "! \(key): \(failure.text(withoutKey: key))"
      if failure.kind == .suspiciousShrink {
        out += "\n"  // the message says what stays in use
      } else {
        out +=
          missing.contains(key) ? " It has no good copy yet and is left out.\n" : " Its previous copy stays in use.\n"
      }
    }
    for key in summary.missingCopies where !summary.outcomes.contains(where: { $0.0 == key }) {
      out += "! \(key) has no good copy yet and is left out.\n"
    }
    return out
  }
}
