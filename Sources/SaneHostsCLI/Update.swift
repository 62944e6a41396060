import ArgumentParser
import Downloads
import Foundation
import Loading
import Store
import Updates

/// `sanehosts update`: fetch a profile's sources and recompile it.
struct Update: AsyncParsableCommand {
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

      Progress: live lines on a terminal, plain lines when standard output is not a terminal, one JSON \
      object per event with --json. Exit status: 0 when at least one source updated or was unchanged, \
      1 when every source failed or the update could not run, 75 when another update is running \
      (see --wait), 130 when cancelled.
      """)

  @OptionGroup var store: StoreOptions
  @Option(help: "The profile to update (default: the active one).") var profile: String?
  @Flag(help: "Download and parse every source even if unchanged.") var force = false
  @Option(name: .shortAndLong, help: "Sources fetched at the same time.") var jobs = 4
  @Flag(help: "Wait for another running update instead of stopping.") var wait = false
  @Option(help: "Give up on a source after this many seconds.") var timeout = 300
  @Option(help: "Refuse sources larger than this many MiB.") var maxSize = 512
  @Flag(help: "Print one JSON object per event on standard output.") var json = false
  @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false

  func validate() throws {
    if jobs < 1 || jobs > 32 { throw ValidationError("--jobs must be between 1 and 32, not \(jobs).") }
    if timeout < 1 { throw ValidationError("--timeout must be at least 1 second, not \(timeout).") }
    if maxSize < 1 { throw ValidationError("--max-size must be at least 1 MiB, not \(maxSize).") }
    if json && quiet { throw ValidationError("--json and --quiet cannot be used together.") }
  }

  func run() async throws {
    let store = try store.open()
    var configuration = DownloadConfiguration()
    configuration.totalTimeout = .seconds(timeout)
    configuration.maximumBytes = Int64(maxSize) * 1024 * 1024
    configuration.temporaryDirectory = store.directory.staging
    let mode: UpdateRenderer.Mode =
      json ? .json : quiet ? .quiet : Terminal.isInteractive(.standardOutput) ? .live : .plain
    let renderer = UpdateRenderer(mode: mode, width: Terminal.width(.standardOutput))
    let options = Updater.Options(force: force, concurrentSources: jobs, waitForLock: wait)
    let profile = self.profile

    let summary: UpdateSummary
    do {
      summary = try await DownloadManager.withManager(configuration: configuration) { manager in
        try await Interrupts.cancelling(onSignal: { await manager.cancelAll() }) {
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
            group.addTask {
              try await Updater(store: store, client: manager).update(profile: profile, options: options) {
                renderer.handle($0)
              }
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
              if let result { return result }
            }
            throw CancellationError()
          }
        }
      }
    } catch is CancellationError {
      Terminal.writeError("Cancelled; the store is unchanged.\n")
      throw ExitCode(130)
    } catch UpdateError.store(.updateRunning(let pid, let lockFile)) {
      Terminal.writeError("Error: \(CLIError(StoreError.updateRunning(pid: pid, lockFile: lockFile)))\n")
      throw ExitCode(75)
    } catch let error as UpdateError {
      throw CLIError(error)
    }

    if mode == .plain || mode == .live { Terminal.writeOutput(Self.text(summary)) }
    if mode == .quiet {
      for case (let key, .failed(let failure)) in summary.outcomes {
        Terminal.writeError("\(key): \(failure.text(withoutKey: key))\n")
      }
    }
    if summary.run.outcome == .failed { throw ExitCode(1) }
  }

  static func text(_ summary: UpdateSummary) -> String {
    let run = summary.run
    var out = "Profile \(run.profileName) updated in \(String(format: "%.2f", summary.elapsed.secondsValue)) s: "
    out += "\(run.updated) updated, \(run.unchanged) unchanged, \(run.failed) failed. "
    if let compiled = summary.compiled {
      out += "\(compiled.names.grouped) names blocked\(summary.recompiled ? "" : " (unchanged)").\n"
    } else {
      out += "Nothing compiled yet.\n"
    }
    // One line per failed source: what failed, what to do, and whether the profile lost it.
    let missing = Set(summary.missingCopies)
    for case (let key, .failed(let failure)) in summary.outcomes {
      out += "! \(key): \(failure.text(withoutKey: key))"
      out +=
        missing.contains(key) ? " It has no good copy yet and is left out.\n" : " Its previous copy stays in use.\n"
    }
    for key in summary.missingCopies where !summary.outcomes.contains(where: { $0.0 == key }) {
      out += "! \(key) has no good copy yet and is left out.\n"
    }
    return out
  }
}
