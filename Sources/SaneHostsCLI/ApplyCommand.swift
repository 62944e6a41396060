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
    abstract: "Write the profile's blocked names into the hosts file, or a drop-in for a DNS server.",
    discussion: """
      Hosts file (the default): the names go between two marker lines; everything outside them is kept \
      byte for byte. The file is validated, backed up (see `sanehosts restore --list`), written to a \
      temporary file with the original's owner, mode and SELinux label, then renamed over it, so a crash \
      leaves the old file or the new one. When the file is a mount point (as /etc/hosts is in most \
      containers) it is rewritten in place instead, after the backup. Applying the same names again \
      writes nothing. If the SaneHosts section was edited by someone else since the last apply, nothing \
      is written unless --force is given. Above \(HostsSection.adviceThreshold) names every lookup scans \
      a long file: a DNS server target answers faster.

      DNS servers (--target): dnsmasq (address=/name/# lines, blocking subdomains too), dnsmasq-hosts \
      (an addn-hosts file with 0.0.0.0 and :: per name, exact names only), unbound (local-zone \
      always_null) or bind (a response-policy zone). The whole file is SaneHosts': it is checked with the \
      server's own checker when installed (dnsmasq --test, unbound-checkconf, named-checkzone), backed \
      up and replaced atomically; --reload then tells the server (systemctl, unbound-control, rndc, or \
      SIGHUP to --reload-pid).

      Exit status: 0 on success, 1 on an error (nothing written, or: written but the reload failed).
      """)

  /// Where the names go.
  enum Target: String, ExpressibleByArgument, CaseIterable {
    case hosts, dnsmasq
    case dnsmasqHosts = "dnsmasq-hosts"
    case unbound, bind

    var server: ServerTarget? { ServerTarget(rawValue: rawValue) }
  }

  @OptionGroup var store: StoreOptions
  @Option(help: "Apply this profile instead of the active one.") var profile: String?
  @OptionGroup var files: ManagedFileOptions

  @Option(help: "Where to apply: hosts, dnsmasq, dnsmasq-hosts, unbound or bind.") var target: Target = .hosts
  @Option(
    help: ArgumentHelp(
      "The drop-in file for a DNS server target (default: dnsmasq /etc/dnsmasq.d/sanehosts.conf, unbound /etc/unbound/unbound.conf.d/sanehosts.conf, …).",
      valueName: "path"))
  var output: String?
  @Flag(help: "After writing a drop-in, make the server load it (systemctl, unbound-control or rndc).")
  var reload = false
  @Option(help: ArgumentHelp("Reload by sending SIGHUP to this process instead.", valueName: "pid"))
  var reloadPid: Int32?
  @Option(help: ArgumentHelp("Reload this systemd unit instead of the target's usual one.", valueName: "unit"))
  var reloadUnit: String?
  @Flag(help: "Do not run the server's configuration checker on the drop-in.") var noCheck = false
  @Flag(help: "After changing the hosts file, flush the DNS caches that run (systemd-resolved, nscd, dnsmasq).")
  var flush = false

  @Option(help: "Address for blocked names in the hosts file: ipv4 (0.0.0.0), ipv6 (::), both, or an IP address.")
  var address = "ipv4"
  @Option(help: "Names per hosts line.") var namesPerLine = 1

  @Flag(help: "Show what would change, write nothing.") var dryRun = false
  @Flag(help: "Print every line added (+) and removed (-), and the lookup time when it can be measured.")
  var diff = false
  @Flag(help: "Replace SaneHosts' part even if someone else edited it.") var force = false
  @Flag(help: "Print the result as JSON on standard output.") var json = false
  @Flag(name: .shortAndLong, help: "Print nothing but errors and warnings.") var quiet = false

  func validate() throws {
    if namesPerLine < 1 { throw ValidationError("--names-per-line must be at least 1, not \(namesPerLine).") }
    _ = try hostsAddress()
    if target == .hosts {
      for (given, name) in [
        (output != nil, "--output"), (reload, "--reload"), (reloadPid != nil, "--reload-pid"),
        (reloadUnit != nil, "--reload-unit"), (noCheck, "--no-check"),
      ] where given {
        throw ValidationError("\(name) is for a DNS server target (--target dnsmasq|dnsmasq-hosts|unbound|bind).")
      }
    } else if flush {
      throw ValidationError("--flush is for the hosts file; a DNS server target is reloaded with --reload.")
    }
    if (reloadPid != nil || reloadUnit != nil) && !reload {
      throw ValidationError("--reload-pid and --reload-unit choose how --reload reloads: add --reload.")
    }
    if reloadPid != nil && reloadUnit != nil { throw ValidationError("Give --reload-pid or --reload-unit, not both.") }
  }

  func hostsAddress() throws -> Renderer.HostsAddress { try Renderer.HostsAddress(option: address) }

  struct Result: Encodable {
    var target: String
    var path: String
    var profile: String
    var names: Int
    var added: Int
    var removed: Int
    var wrote: Bool
    var dryRun: Bool
    var backup: String?
    var inPlace: Bool
    var check: String?
    var reloaded: String?
    var flushed: [String]?
    var lookupMicroseconds: Int?
    var warnings: [String]
  }

  func run() async throws {
    do {
      let file = files.file(
        target.server.map { output ?? $0.defaultOutput }, ownership: target == .hosts ? .section : .whole,
        data: store.directory)
      if !dryRun {
        if target != .hosts { try Self.createParent(of: file.path) }
        try file.checkWritable()
      }
      let store = try store.open()
      let set = try await BlockSet.compile(profile: profile, in: store)
      let warnings = set.missing.map { "\($0) has no saved copy yet and is left out (run `sanehosts update`)." }
      var result: Result
      var latency: Duration?
      var reloadFailure: (any Error)?
      if let server = target.server {
        (result, reloadFailure) = try await applyToServer(server, set: set, file: file, warnings: warnings)
      } else {
        (result, latency) = try await applyToHosts(set: set, file: file, warnings: warnings)
      }
      report(result, latency: latency)
      if let reloadFailure { throw CLIError(reloadFailure) }
    } catch let error as CLIError {
      throw error
    } catch let error as ExitCode {
      throw error
    } catch {
      throw CLIError(error)
    }
  }

  private func applyToHosts(set: BlockSet, file: ManagedFile, warnings: [String]) async throws -> (Result, Duration?) {
    var warnings = warnings
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
        "\(set.list.count.grouped) names: every lookup scans the whole hosts file. For this many, a DNS server answers faster: `sanehosts apply --target dnsmasq` (or unbound)."
      )
    }
    if diff && !json { Terminal.writeOutput(ChangeText.diff(change)) }
    var outcome = ManagedFile.Outcome()
    var flushed: [String]?
    if !dryRun {
      outcome = try file.commit(change, profile: set.profile.name, names: set.list.count, target: "hosts", force: force)
      if outcome.inPlace {
        warnings.append(
          "\(file.path) is a mount point (a container's?), so it was rewritten in place, which is not atomic; the backup \(outcome.backup?.id ?? "-") holds the old file."
        )
      }
      if flush {
        let report = await CacheFlusher().flush()
        flushed = report.flushed
        if !json && !quiet { Terminal.writeError("DNS caches: \(report.summary).\n") }
        warnings += report.failed.map { "could not flush \($0)" }
      }
    }
    var latency: Duration?
    if diff && Ledger.key(file.path) == "/etc/hosts", let last = lines.last?.split(separator: " ").last {
      latency = LookupLatency.measure(String(last))
    }
    let result = Result(
      target: "hosts", path: file.path, profile: set.profile.name, names: set.list.count, added: change.added.count,
      removed: change.removed.count, wrote: outcome.wrote, dryRun: dryRun, backup: outcome.backup?.id,
      inPlace: outcome.inPlace, check: nil, reloaded: nil, flushed: flushed,
      lookupMicroseconds: latency.map { Int($0.secondsValue * 1_000_000) }, warnings: warnings)
    return (result, latency)
  }

  private func applyToServer(_ server: ServerTarget, set: BlockSet, file: ManagedFile, warnings: [String])
    async throws -> (Result, (any Error)?)
  {
    var warnings = warnings
    var reloadFailure: (any Error)?
    let bytes = try await server.render(set.list, title: "SaneHosts profile \(set.profile.name)", date: Date())
    let change = try file.prepare(contents: bytes)
    if let note = ChangeText.drift(change.drift, path: file.path) { warnings.append(note) }
    // The header's date (and the RPZ serial) change every time: only the entries decide.
    let entriesChanged = change.before == nil || Self.entries(change.added) != [] || Self.entries(change.removed) != []
    if diff && !json { Terminal.writeOutput(ChangeText.diff(change, skipping: ServerTarget.isVolatile)) }
    var check: ConfigCheck?
    if !noCheck && entriesChanged {
      check = try await Self.check(bytes, as: server, near: store.directory)
      if case .failed = check {
        throw ApplyError.invalidContent(path: file.path, reason: check!.summary)
      }
      if case .unavailable = check { warnings.append(check!.summary) }
    }
    var outcome = ManagedFile.Outcome()
    var reloaded: String?
    if !dryRun && entriesChanged {
      outcome = try file.commit(
        change, profile: set.profile.name, names: set.list.count, target: server.rawValue, force: force)
      if reload {
        let method: ReloadMethod =
          if let pid = reloadPid { .signal(pid: pid) } else if let unit = reloadUnit {
            server == .dnsmasq ? .systemdRestart(unit: unit) : .systemd(unit: unit)
          } else { server.defaultReload }
        do {
          reloaded = try await method.perform(runner: ProcessRunner())
        } catch {
          reloadFailure = error
          warnings.append("\(file.path) was written, but reloading \(server.server) failed.")
        }
      }
      if change.before == nil && !json && !quiet {
        Terminal.writeError(
          "To load it, add to \(server.server)'s configuration (once):\n\(server.instructions(output: file.path))\n")
      }
    }
    let result = Result(
      target: server.rawValue, path: file.path, profile: set.profile.name, names: set.list.count,
      added: Self.entries(change.added).count, removed: Self.entries(change.removed).count, wrote: outcome.wrote,
      dryRun: dryRun, backup: outcome.backup?.id, inPlace: outcome.inPlace, check: check?.summary,
      reloaded: reloaded, flushed: nil, lookupMicroseconds: nil, warnings: warnings)
    return (result, reloadFailure)
  }

  /// Lines that are entries, not ones that change with every render (the zone's SOA serial).
  static func entries(_ lines: [String]) -> [String] { lines.filter { !ServerTarget.isVolatile($0) } }

  /// Runs the server's checker on the bytes in a scratch file.
  static func check(_ bytes: [UInt8], as server: ServerTarget, near data: DataDirectory) async throws -> ConfigCheck {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sanehosts-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let path = scratch.appendingPathComponent(server == .bind ? "db.sanehosts.rpz" : "sanehosts.conf").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return await server.check(path, runner: ProcessRunner())
  }

  /// Creates the drop-in's directory (0755) when it is missing, as a package would.
  static func createParent(of path: String) throws {
    let parent = (path as NSString).deletingLastPathComponent
    guard !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) else { return }
    do {
      try FileManager.default.createDirectory(
        atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    } catch {
      throw ApplyError.notPermitted(path: path, detail: "cannot create \(parent)", isRoot: geteuid() == 0)
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
    if let check = result.check { line += "\nCheck: \(check)" }
    if let reloaded = result.reloaded { line += "\nReload: \(reloaded)." }
    if let latency { line += "\nLookup of a name at the end of the file: \(Self.format(latency))." }
    Terminal.writeError(line + "\n")
  }

  static func format(_ duration: Duration) -> String {
    let microseconds = duration.secondsValue * 1_000_000
    return microseconds < 1000 ? "\(Int(microseconds)) µs" : String(format: "%.1f ms", microseconds / 1000)
  }
}
