import Apply
import ArgumentParser
import Blocklists
import Foundation
import Store
import Updates

/// `sanehosts status`: what is active, how fresh it is, and what needs attention.
struct Status: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the active profile, its sources' freshness and counts, the last update and warnings.")

  @OptionGroup var store: StoreOptions
  @Option(help: "Show this profile instead of the active one.") var profile: String?
  @Option(help: "Call a source stale after this many days without a successful update.") var staleDays = 7
  @Flag(help: "Print JSON on standard output.") var json = false

  struct StatusJSON: Encodable {
    var dataDirectory: String
    var profile: ProfileJSON
    var compiledListCurrent: Bool
    var lastUpdate: UpdateRun?
    var applied: [AppliedJSON]
    var warnings: [String]
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
      Ledger(url: data.ledger).entries().sorted { $0.key < $1.key }.map { path, entry in
        let bytes = FileManager.default.contents(atPath: path).map(Array.init) ?? []
        var latency: Int?
        // The system file is what the resolver reads: time a lookup of the section's last name.
        if path == "/etc/hosts", entry.profile != nil,
          let last = (try? ManagedSection.lines(in: bytes))??.last?.split(separator: " ").last,
          let measured = LookupLatency.measure(String(last))
        {
          latency = Int(Double(measured.components.attoseconds) / 1e12 + Double(measured.components.seconds) * 1e6)
        }
        return AppliedJSON(
          path: path, target: entry.target, profile: entry.profile, names: entry.names, date: entry.date,
          unchanged: ManagedFile.sha256(bytes) == entry.sha256, lookupMicroseconds: latency)
      }
    }

    var line: String {
      var text = "\(path): "
      text += profile.map { "profile \($0), \(names.grouped) names" } ?? "no section"
      text += ", written \(Text.age(date))"
      text += unchanged ? "" : " (changed since by someone else)"
      if let lookupMicroseconds { text += "; a lookup takes \(lookupMicroseconds) µs" }
      return text
    }
  }

  func run() throws {
    let store = try store.open()
    let profile = try storeCall { () throws(StoreError) in try store.profile(self.profile) }
    let object = try ProfileJSON(profile, store: store)
    let members = try storeCall { () throws(StoreError) in try store.sources(in: profile.name) }
    let lastRun = try storeCall { () throws(StoreError) in try store.runs(of: profile, limit: 1).first }
    let current = try storeCall { () throws(StoreError) in try Updater.isCompiledListCurrent(profile, in: store) }
    let warnings = Self.warnings(members: members, compiledNames: object.names, current: current, staleDays: staleDays)
    let applied = AppliedJSON.all(store.directory)

    if json {
      Terminal.writeOutput(
        Text.json(
          StatusJSON(
            dataDirectory: store.directory.url.path, profile: object, compiledListCurrent: current,
            lastUpdate: lastRun, applied: applied, warnings: warnings)))
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
    out += "\n" + (members.isEmpty ? "No sources.\n" : SourceTable.table(members, failures: false))
    if !warnings.isEmpty {
      out += "\nWarnings:\n" + warnings.map { "  - \($0)\n" }.joined()
    }
    Terminal.writeOutput(out)
  }

  static func warnings(members: [ProfileSource], compiledNames: Int?, current: Bool, staleDays: Int, now: Date = Date())
    -> [String]
  {
    var warnings: [String] = []
    let enabled = members.filter(\.enabled)
    if members.isEmpty {
      warnings.append("The profile has no sources: add some with `sanehosts sources add` (see `sanehosts catalog`).")
    } else if enabled.isEmpty {
      warnings.append("Every source is disabled: enable one with `sanehosts sources enable NAME`.")
    }
    for member in enabled {
      let source = member.source
      if source.status == .failed {
        warnings.append("\(source.key) failed: \(source.message ?? "unknown reason")")
      } else if source.cacheFile == nil {
        warnings.append("\(source.key) has never been downloaded: run `sanehosts update`.")
      }
      if let success = source.lastSuccess, now.timeIntervalSince(success) > Double(staleDays) * 86_400 {
        warnings.append("\(source.key) is stale: last updated \(Text.age(success, now: now)).")
      }
      if let findings = source.findings, let content = findings.content {
        warnings.append("\(source.key) \(content.advice)")
      }
    }
    if !enabled.isEmpty {
      if compiledNames == nil {
        warnings.append("The profile has not been compiled yet: run `sanehosts update`.")
      } else if !current {
        warnings.append("Sources, rules or copies changed since the last compile: run `sanehosts update`.")
      }
    }
    return warnings
  }
}
