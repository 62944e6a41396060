import Apply
import ArgumentParser
import Blocklists
import Foundation
import Store
import Updates
import UseCases

/// `sanehosts status`: what is active, how fresh it is, and what needs attention.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show the active profile, its sources' freshness and counts, the last update and warnings.")

  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @Option(help: "Warn about a source without a successful update for this many days.")
  var outdatedDays = ProfileStatus.defaultOutdatedDays
  @Option(
    help: "Call a source stale when its content has not changed, or its own header is dated, this many days back.")
  var staleDays = ProfileStatus.defaultStaleDays
  @OptionGroup var printing: OutputOptions

  struct StatusJSON: Encodable {
    var dataDirectory: String
    var profile: ProfileJSON
    var compiledListCurrent: Bool
    var lastUpdate: UpdateRun?
    var applied: [AppliedJSON]
    var ending: [EndingJSON]
    var warnings: [String]
  }

  /// An allow rule for a while.
  struct EndingJSON: Encodable {
    var rule: String
    var expiresAt: Date
  }

  /// A file SaneHosts last wrote, from the ledger, and whether it still holds what was written.
  struct AppliedJSON: Encodable {
    var path: String
    var target: String
    var profile: String?
    var names: Int
    var date: Date
    var unchanged: Bool
    var lookupMicroseconds: Int?

    static func all(_ data: DataDirectory) -> [AppliedJSON] {
      AppliedFile.all(data: data).map { file in
        var latency: Int?
        // The system file is what the resolver reads: time a lookup of the section's last name.
        if file.path == "/etc/hosts", file.profile != nil,
          let bytes = FileManager.default.contents(atPath: file.path).map(Array.init),
          let last = (try? ManagedSection.lines(in: bytes))??.last?.split(separator: " ").last,
          let measured = LookupLatency.measure(String(last))
        {
          latency = Int(Double(measured.components.attoseconds) / 1e12 + Double(measured.components.seconds) * 1e6)
        }
        return AppliedJSON(
          path: file.path, target: file.target, profile: file.profile, names: file.names, date: file.date,
          unchanged: file.unchanged ?? false, lookupMicroseconds: latency)
      }
    }

    var line: String {
      var text = "\(path): "
      text += profile.map { "profile \($0), \(names.counted("name"))" } ?? "no section"
      text += ", written \(Text.age(date))"
      if !FileManager.default.fileExists(atPath: path) {
        text += " (the file is gone)"
      } else if !unchanged {
        text += " (changed since by someone else)"
      }
      if let lookupMicroseconds { text += "; a lookup takes \(lookupMicroseconds) µs" }
      return text
    }
  }

  func run() throws {
    let store = try store.open()
    let status = try ProfileStatus(
      profile: self.profile.name, in: store, staleDays: staleDays, outdatedDays: outdatedDays)
    let snapshot = status.snapshot
    let profile = snapshot.profile
    let object = ProfileJSON(snapshot, in: store.directory)
    let members = snapshot.sources
    let lastRun = snapshot.lastUpdate
    let current = snapshot.isCompiledListCurrent
    let warnings = status.warnings.map(\.description)
    // A file that is gone, of a profile that is gone too, is no longer shown.
    AppliedFile.forgetGone(in: store)
    let applied = AppliedJSON.all(store.directory)
    let ending = try store.rules(in: profile.name, action: .allow).compactMap { rule in
      rule.expiresAt.map { EndingJSON(rule: rule.text, expiresAt: $0) }
    }.sorted { $0.expiresAt < $1.expiresAt }

    if printing.json {
      Terminal.writeOutput(
        Text.json(
          StatusJSON(
            dataDirectory: store.directory.url.path, profile: object, compiledListCurrent: current,
            lastUpdate: lastRun, applied: applied, ending: ending, warnings: warnings)))
      return
    }
    var out = "Profile: \(profile.name)\(profile.isActive ? " (active)" : "")\n"
    out += "Data: \(store.directory.url.path)\n"
    if let names = object.names {
      out += "Blocked names: \(names.grouped) (compiled \(Text.age(object.compiledAt)))\n"
    } else {
      out += "Blocked names: none yet\n"
    }
    if let run = lastRun {
      out += "Last update: \(Text.age(run.finishedAt)), \(run.outcome.rawValue): \(run.updated) updated, "
      out += "\(run.unchanged) unchanged, \(run.failed) failed\n"
    } else {
      out += "Last update: never\n"
    }
    if applied.isEmpty {
      out += "Applied: nowhere yet (`sanehosts apply`)\n"
    } else {
      out += "Applied:\n" + applied.map { "  \($0.line)\n" }.joined()
    }
    if !ending.isEmpty {
      out += "Allowed for a while:\n"
      out += ending.map { "  \($0.rule) \(RuleArguments.ending($0.expiresAt))\n" }.joined()
    }
    out += "\n" + (members.isEmpty ? "No sources.\n" : SourceTable.table(members, failures: false))
    if !warnings.isEmpty {
      out += "\nWarnings:\n" + warnings.map { "  - \($0)\n" }.joined()
    }
    Terminal.writeOutput(out)
  }
}
