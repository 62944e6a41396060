import Apply
import ArgumentParser
import Blocklists
import Foundation
import Loading
import Store

/// `sanehosts apply`: writes the active profile's block set into the hosts file (or a DNS server drop-in).
struct ApplyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "apply",
    abstract: "Write the profile's blocked names into the hosts file's managed section.",
    discussion: """
      The names go between two marker lines; everything outside them is kept byte for byte. The file is \
      validated, backed up (see `sanehosts restore --list`), written to a temporary file with the \
      original's owner, mode and SELinux label, then renamed over it, so a crash leaves the old file or \
      the new one. When the file is a mount point (as /etc/hosts is in most containers) it is rewritten \
      in place instead, after the backup. Applying the same names again writes nothing.

      If the SaneHosts section was edited by someone else since the last apply, nothing is written \
      unless --force is given. Above \(HostsSection.adviceThreshold) names every lookup scans a long \
      file: consider a DNS server target (dnsmasq or unbound) for a whole network.

      Exit status: 0 on success, 1 on an error (nothing written).
      """)

  @OptionGroup var store: StoreOptions
  @Option(help: "Apply this profile instead of the active one.") var profile: String?
  @OptionGroup var files: ManagedFileOptions

  @Option(help: "Address for blocked names: ipv4 (0.0.0.0), ipv6 (::), both, or an IP address.")
  var address = "ipv4"
  @Option(help: "Names per hosts line.") var namesPerLine = 1

  @Flag(help: "Show what would change, write nothing.") var dryRun = false
  @Flag(help: "Print every line added (+) and removed (-), and the lookup time when it can be measured.")
  var diff = false
  @Flag(help: "Replace the section even if someone else edited it.") var force = false
  @Flag(help: "Print the result as JSON on standard output.") var json = false
  @Flag(name: .shortAndLong, help: "Print nothing but errors and warnings.") var quiet = false

  func validate() throws {
    if namesPerLine < 1 { throw ValidationError("--names-per-line must be at least 1, not \(namesPerLine).") }
    _ = try hostsAddress()
  }

  func hostsAddress() throws -> Renderer.HostsAddress {
    switch address {
    case "ipv4": return .ipv4
    case "ipv6": return .ipv6
    case "both": return .both
    default:
      guard Address.classify(address) != .none else {
        throw ValidationError("--address must be ipv4, ipv6, both or an IP address, not “\(address)”.")
      }
      return .custom(address)
    }
  }

  struct Result: Encodable {
    var path: String
    var profile: String
    var names: Int
    var added: Int
    var removed: Int
    var wrote: Bool
    var dryRun: Bool
    var backup: String?
    var inPlace: Bool
    var lookupMicroseconds: Int?
    var warnings: [String]
  }

  func run() async throws {
    let data = store.directory
    let file = files.file(data: data)
    do {
      if !dryRun { try file.checkWritable() }
      let store = try store.open()
      let set = try await BlockSet.compile(profile: profile, in: store)
      var warnings = set.missing.map { "\($0) has no saved copy yet and is left out (run `sanehosts update`)." }
      let lines = try await HostsSection.lines(
        for: set.list, profile: set.profile.name, address: try hostsAddress(), namesPerLine: namesPerLine)
      if let bad = HostsSection.firstInvalidLine(lines) {
        throw ApplyError.invalidContent(
          path: file.path, reason: "line \(bad.line) of the section would not parse: \(bad.text)")
      }
      let change = try file.prepare(lines: lines)
      if let note = ChangeText.drift(change.drift, path: file.path) { warnings.append(note) }
      if set.list.count > HostsSection.adviceThreshold {
        warnings.append(
          "\(set.list.count) names: every lookup scans the whole hosts file. For this many, the dnsmasq or unbound target (`sanehosts apply --target dnsmasq`) answers faster."
        )
      }
      if diff && !json { Terminal.writeOutput(ChangeText.diff(change)) }
      var outcome = ManagedFile.Outcome(backup: nil, inPlace: false, wrote: false)
      if !dryRun {
        outcome = try file.commit(
          change, profile: set.profile.name, names: set.list.count, target: "hosts", force: force)
        if outcome.inPlace {
          warnings.append(
            "\(file.path) is a mount point (a container's?), so it was rewritten in place, which is not atomic; the backup \(outcome.backup?.id ?? "-") holds the old file."
          )
        }
      }
      var latency: Duration?
      if diff && Ledger.key(file.path) == "/etc/hosts", let last = lines.last?.split(separator: " ").last {
        latency = LookupLatency.measure(String(last))
      }
      let result = Result(
        path: file.path, profile: set.profile.name, names: set.list.count, added: change.added.count,
        removed: change.removed.count, wrote: outcome.wrote, dryRun: dryRun, backup: outcome.backup?.id,
        inPlace: outcome.inPlace, lookupMicroseconds: latency.map { Int($0.secondsValue * 1_000_000) },
        warnings: warnings)
      report(result, latency: latency)
    } catch let error as ApplyError {
      throw CLIError(error)
    } catch let error as StoreError {
      throw CLIError(error)
    } catch let error as CompileError {
      throw CLIError(error)
    }
  }

  private func report(_ result: Result, latency: Duration?) {
    if json {
      Terminal.writeOutput(Text.json(result))
      return
    }
    for warning in result.warnings {
      Terminal.writeError(
        warning.hasPrefix("note:") || warning.hasPrefix("warning:") ? "\(warning)\n" : "warning: \(warning)\n")
    }
    if quiet { return }
    let counts = "\(result.names.grouped) names (+\(result.added.grouped) −\(result.removed.grouped))"
    var line: String
    if result.dryRun {
      line = "Would apply profile \(result.profile) to \(result.path): \(counts); nothing written (--dry-run)."
    } else if result.wrote {
      line = "Applied profile \(result.profile) to \(result.path): \(counts)."
      if let backup = result.backup { line += " Backup: \(backup)." }
    } else {
      line = "\(result.path) already holds profile \(result.profile) (\(result.names.grouped) names): nothing to write."
    }
    if let latency { line += "\nLookup of a name at the end of the file: \(Self.format(latency))." }
    Terminal.writeError(line + "\n")
  }

  static func format(_ duration: Duration) -> String {
    let microseconds = duration.secondsValue * 1_000_000
    return microseconds < 1000 ? "\(Int(microseconds)) µs" : String(format: "%.1f ms", microseconds / 1000)
  }
}
