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

  func run() async throws {
    do {
      let file = files.file(
        target.server.map { output ?? $0.defaultOutput }, ownership: target == .hosts ? .section : .whole,
        data: store.directory)
      // Before the store is opened: a user who may not write the file gets "use sudo or --hosts-file",
      // not an error about root's data directory. (Applier checks again, for callers without this step.)
      if !dryRun {
        if target != .hosts { try Applier.createParent(of: file.path) }
        try file.checkWritable()
      }
      let store = try store.open()
      let options = Applier.Options(
        profile: profile, server: target.server, address: try hostsAddress(), namesPerLine: namesPerLine,
        dryRun: dryRun, force: force, check: !noCheck, reload: reloadMethod, flush: flush)
      var applied = try await Applier(store: store, file: file).apply(options)
      if diff && !json {
        Terminal.writeOutput(
          applied.change.diffText(skipping: target == .hosts ? { _ in false } : ServerTarget.isVolatile))
      }
      var latency: Duration?
      if diff && target == .hosts && Ledger.key(file.path) == "/etc/hosts", let last = applied.lastName {
        latency = LookupLatency.measure(last)
        applied.result.lookupMicroseconds = latency.map { Int($0.secondsValue * 1_000_000) }
      }
      if let summary = applied.result.flushSummary, !json && !quiet {
        Terminal.writeError("DNS caches: \(summary).\n")
      }
      if applied.result.firstWrite, let instructions = applied.result.instructions, !json && !quiet,
        let server = target.server
      {
        Terminal.writeError("To load it, add to \(server.server)'s configuration (once):\n\(instructions)\n")
      }
      report(applied.result, latency: latency)
      if let reloadFailure = applied.reloadFailure { throw CLIError(reloadFailure) }
    } catch let error as CLIError {
      throw error
    } catch let error as ExitCode {
      throw error
    } catch {
      throw CLIError(error)
    }
  }

  /// How `--reload` reloads the server, or nil without `--reload`.
  var reloadMethod: ReloadMethod? {
    guard reload, let server = target.server else { return nil }
    if let pid = reloadPid { return .signal(pid: pid) }
    if let unit = reloadUnit { return server == .dnsmasq ? .systemdRestart(unit: unit) : .systemd(unit: unit) }
    return server.defaultReload
  }

  private func report(_ result: Applier.Result, latency: Duration?) {
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
