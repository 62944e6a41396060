import Apply
import ArgumentParser
import BlockerTest
import Blocklists
import DNS
import Foundation
import Loading
import Store
import UseCases

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

      \(targetsHelp)

      --verify closes the loop: after writing (and reloading), it probes every name this apply added, then \
      a seeded sample of the other names applied (--verify-sample in all, default 50), every name it let \
      through under a blocked parent (which must not be blocked), a sample of the names it took out (one \
      still answered as blocked fails; a server's NXDOMAIN or NODATA counts as gone upstream only with the \
      SOA of a zone above the name, which a blocker's own answer lacks), and the control \
      domains through the target (the system \
      resolver for the hosts file, the server at --verify IP[:port] for a drop-in) and reports \
      `verified: 50/50 sampled names blocked, controls reachable`, or each name not blocked yet with the \
      likely reason (not reloaded, a cached answer and its TTL, the server's own allow list). A name is \
      blocked when both its A and AAAA answers carry no routable address (see `sanehosts help test`).

      Exit status: 0 on success, 1 on an error (nothing written, or: written but the reload failed), 5 when \
      --verify finds a sampled name not blocked or a control domain blocked.
      """)

  /// `--verify` with no value: the system resolver (the hosts file's lookups).
  static let systemResolver = "system"

  /// The targets and what the drop-ins share, from the table of targets.
  static var targetsHelp: String {
    let servers = ServerTarget.allCases
    let checkers = servers.map { "\($0.rawValue): \($0.checker)" }.joined(separator: ", ")
    let reloads = servers.map { "\($0.rawValue): \($0.defaultReload().command)" }.joined(separator: ", ")
    let sockets = servers.filter { $0.kind.reloadSocket != nil }.map(\.rawValue).joined(separator: " and ")
    return """
      Targets (--target):
      \(Target.table.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))

      A DNS server's drop-in is wholly SaneHosts': it is checked with the server's own checker when \
      installed (\(checkers)), backed up and replaced atomically; --reload then tells the server \
      (\(reloads)), or --reload-unit reloads another systemd unit, or --reload-pid sends SIGHUP (\(sockets) \
      stop on SIGHUP and take --reload-socket instead; dnsmasq does not read a drop-in in /etc/dnsmasq.d \
      again on it). Allow rules under a blocked parent become the server's own exceptions where the format \
      has them (server=/name/#, transparent zones, rpz-passthru.).
      """
  }

  /// The servers' names for messages: `dnsmasq|unbound|…`.
  static let serverNames = ServerTarget.allCases.map(\.rawValue).joined(separator: "|")

  @OptionGroup var store: StoreOptions
  @OptionGroup var profile: ProfileOption
  @OptionGroup var files: ManagedFileOptions

  @Option(help: "Where to apply: \(Target.names).")
  var target: Target = .hosts
  @Option(
    help: ArgumentHelp(
      "The drop-in file for a DNS server target (default: \(ServerTarget.allCases.map { "\($0.rawValue) \($0.defaultOutput)" }.joined(separator: ", "))).",
      valueName: "path"))
  var output: String?
  @Flag(help: "After writing a drop-in, make the server load it (the usual way for each target: see above).")
  var reload = false
  @Option(help: ArgumentHelp("Reload by sending SIGHUP to this process instead.", valueName: "pid"))
  var reloadPid: Int32?
  @Option(help: ArgumentHelp("Reload this systemd unit instead of the target's usual one.", valueName: "unit"))
  var reloadUnit: String?
  @Option(
    help: ArgumentHelp(
      ServerTarget.allCases.compactMap { server in server.kind.reloadSocket.map { "\(server.rawValue): \($0)" } }
        .joined(separator: "; ") + ".",
      valueName: "path"))
  var reloadSocket: String?
  @Flag(help: "Do not run the server's configuration checker on the drop-in.") var noCheck = false
  @Flag(help: "After changing the hosts file, flush the DNS caches that run (systemd-resolved, nscd, dnsmasq).")
  var flush = false

  @Option(help: "Address for blocked names in the hosts file: ipv4 (0.0.0.0), ipv6 (::), both, or an IP address.")
  var address = "ipv4"
  @Option(help: "Names per hosts line.") var namesPerLine = 1

  @Option(
    help: ArgumentHelp(
      "After applying, probe a sample of the names through the target: the system resolver (no value, for the hosts file) or the DNS server IP[:port] that loads the drop-in.",
      valueName: "resolver"))
  var verify: String?
  @Option(help: ArgumentHelp("Names sampled by --verify.", valueName: "n")) var verifySample = 50
  @Option(help: "Seconds --verify waits for each answer.") var verifyTimeout: Double = 2

  @Flag(help: "Show what would change, write nothing.") var dryRun = false
  @Flag(help: "Print a summary (+N −M lines), then the change as a unified diff, and the lookup time when measured.")
  var diff = false
  @Flag(help: "Replace SaneHosts' part even if someone else edited it.") var force = false
  @OptionGroup(title: "The fleet's primary") var transfer: TransferOptions
  @OptionGroup var printing: OutputOptions
  @Flag(name: .shortAndLong, help: "Print nothing but errors and warnings.") var quiet = false

  func validate() throws {
    if namesPerLine < 1 { throw ValidationError("--names-per-line must be at least 1, not \(namesPerLine).") }
    _ = try hostsAddress()
    if target == .hosts {
      for (given, name) in [
        (output != nil, "--output"), (reload, "--reload"), (reloadPid != nil, "--reload-pid"),
        (reloadUnit != nil, "--reload-unit"), (noCheck, "--no-check"), (reloadSocket != nil, "--reload-socket"),
      ] where given {
        throw ValidationError("\(name) is for a DNS server target (--target \(Self.serverNames)).")
      }
    } else if flush {
      throw ValidationError("--flush is for the hosts file; a DNS server target is reloaded with --reload.")
    }
    if (reloadPid != nil || reloadUnit != nil) && !reload {
      throw ValidationError("--reload-pid and --reload-unit choose how --reload reloads: add --reload.")
    }
    if let verify {
      if dryRun { throw ValidationError("--verify checks what was applied: it cannot be used with --dry-run.") }
      if target == .hosts, let obstacle = ApplyVerification.obstacle(target: target, path: files.hostsFile, server: nil)
      {
        throw ValidationError("--verify cannot check this: \(obstacle).")
      }
      if target == .hosts && verify != Self.systemResolver {
        throw ValidationError(
          "--verify for the hosts file probes through the system resolver: give it no value, not “\(verify)”.")
      }
      if target != .hosts && verify == Self.systemResolver {
        throw ValidationError(
          "--verify for a drop-in needs the DNS server that loads it: --verify IP[:port] (e.g. --verify 127.0.0.1:53).")
      }
      if target != .hosts {
        do {
          _ = try ServerAddress(parsing: verify)
        } catch {
          throw ValidationError("--verify takes the server as IP or IP:port ([v6]:port), not “\(verify)”.")
        }
      }
    }
    if verifySample < 1 || verifySample > 10_000 {
      throw ValidationError("--verify-sample must be between 1 and 10000, not \(verifySample).")
    }
    if TestPlan.timeout(seconds: verifyTimeout) == nil {
      throw ValidationError("--verify-timeout must be \(TestPlan.timeoutRule).")
    }
    if reloadPid != nil && reloadUnit != nil { throw ValidationError("Give --reload-pid or --reload-unit, not both.") }
    if reloadSocket != nil && target.server?.kind.reloadSocket == nil {
      let sockets = ServerTarget.allCases.filter { $0.kind.reloadSocket != nil }.map(\.rawValue)
      throw ValidationError("--reload-socket is for --target \(sockets.joined(separator: " or ")).")
    }
    if reloadSocket != nil && !reload {
      throw ValidationError("--reload-socket chooses how --reload reloads: add --reload.")
    }
    if let refusal = target.server?.refusal(of: reloadChoice, output: output) { throw ValidationError(refusal) }
    if let refusal = transfer.refusal(target: target, reload: reload, verify: verify) {
      throw ValidationError(refusal)
    }
  }

  func hostsAddress() throws -> Renderer.HostsAddress { try Renderer.HostsAddress(option: address) }

  func run() async throws {
    let file = files.file(for: target, output: output, data: store.directory)
    // Before the store is opened: a user who may not write the file gets "use sudo or --hosts-file",
    // not an error about root's data directory; a dry run refuses as the real run would. (Applier
    // checks again, for callers without this step, and notes a drop-in folder it created.)
    if target == .hosts
      || FileManager.default.fileExists(atPath: (Ledger.key(file.path) as NSString).deletingLastPathComponent)
    {
      try file.checkWritable()
    }
    let store = try store.open()
    let options = Applier.Options(
      profile: profile.name, server: target.server, address: try hostsAddress(), namesPerLine: namesPerLine,
      dryRun: dryRun, force: force, check: !noCheck, reload: reloadMethod, flush: flush, primary: try transfer.setup())
    // validate() checked the server's address (none for the hosts file: the system resolver).
    let checking = verify.map { value in
      ApplyRun.Verify(
        server: target == .hosts ? nil : try? ServerAddress(parsing: value), sample: verifySample,
        timeout: .milliseconds(Int(verifyTimeout * 1000)))
    }
    var outcome = try await ApplyRun(store: store, file: file, target: target, options: options, verify: checking).run()
    if diff && !printing.json {
      Terminal.writeOutput(await Self.unifiedDiff(outcome.applied.change, path: file.path, server: target.server))
    }
    var latency: Duration?
    if diff && target == .hosts && Ledger.key(file.path) == "/etc/hosts", let last = outcome.applied.lastName {
      latency = LookupLatency.measure(last)
      outcome.applied.result.lookupMicroseconds = latency.map { Int($0.secondsValue * 1_000_000) }
    }
    if let summary = outcome.applied.result.flushSummary, !printing.json && !quiet {
      Terminal.writeError("DNS caches: \(summary).\n")
    }
    if options.primary != nil, outcome.applied.result.reloaded == nil, !dryRun, !printing.json {
      Terminal.writeError(
        "To make BIND the primary, add to named.conf (once), then apply again:\n"
          + "\(PrimarySetup.instructions(output: file.path))\n")
    } else if outcome.applied.result.firstWrite, let instructions = outcome.applied.result.instructions,
      !printing.json && !quiet,
      let server = target.server
    {
      Terminal.writeError("To load it, add to \(server.server)'s configuration (once):\n\(instructions)\n")
    }
    let notLoaded = outcome.notLoaded.map {
      options.primary == nil
        ? "\($0): apply with --reload (or reload it yourself), then verify again."
        : "\($0): apply again once the primary serves the zone."
    }
    report(outcome.applied.result, latency: latency, verification: outcome.verification, notLoaded: notLoaded)
    if let server = target.server, !printing.json && !quiet, !dryRun {
      Terminal.writeError(Self.costLines(server, names: outcome.applied.result.names))
    }
    if let reloadFailure = outcome.applied.reloadFailure { throw reloadFailure }
    if let verification = outcome.verification, !verification.passed { throw ExitCode(5) }
  }

  /// The change as a summary line (`+N −M lines`) and then a unified diff of the whole file (`diff -u`),
  /// which a pager or `patch` reads; without `diff` installed, the changed lines as `+`/`-` lines.
  static func unifiedDiff(_ change: ManagedFile.Change, path: String, server: ServerTarget?) async -> String {
    let skip: @Sendable (String) -> Bool = { line in server != nil && ServerTarget.isVolatile(line) }
    let added = change.added.filter { !skip($0) }.count
    let removed = change.removed.filter { !skip($0) }.count
    let summary = "# \(path): +\(added.grouped) −\(removed.grouped) lines\n"
    guard added + removed > 0 else { return summary }
    let scratch = FileManager.default.temporaryDirectory.appending(path: "sanehosts-diff-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    do {
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      let before = scratch.appending(path: "before")
      let after = scratch.appending(path: "after")
      try Data(change.before ?? []).write(to: before)
      try Data(change.after ?? []).write(to: after)
      let output = try await ProcessRunner().run(
        "diff", ["-u", "--label", "\(path) (now)", "--label", "\(path) (after apply)", before.path, after.path])
      // diff exits 1 when the files differ.
      if output.status == 1 { return summary + output.standardOutput }
    } catch {}
    return summary + change.diffText(skipping: skip)
  }

  /// What the server costs to hold `names` (`Cost: …`), and a warning when that is more than half of this
  /// machine's memory; empty where the server's cost was not measured.
  static func costLines(_ server: ServerTarget, names: Int, machineMiB: Double? = ServerCost.machineMiB()) -> String {
    guard let cost = ServerCost.dropIn(server), names > 0 else { return "" }
    var text = "Cost: \(cost.sentence(names: names)).\n"
    let mebibytes = cost.estimate(names: names).mebibytes
    if let machineMiB, mebibytes > machineMiB / 2 {
      text +=
        "warning: that is more than half of this machine's \(Int(machineMiB.rounded()).grouped) MiB: a smaller profile, or a server that holds it in less (see docs/fleet.md), may fit better.\n"
    }
    return text
  }

  /// The process, unit or socket the user chose for `--reload`.
  var reloadChoice: ReloadChoice { ReloadChoice(pid: reloadPid, unit: reloadUnit, socket: reloadSocket) }

  /// How `--reload` reloads the server, or nil without `--reload`.
  var reloadMethod: ReloadMethod? {
    guard reload, let server = target.server else { return nil }
    return server.reload(output: output, choice: reloadChoice)
  }

  private func report(_ result: Applier.Result, latency: Duration?, verification: Verification?, notLoaded: String?) {
    if printing.json {
      guard let verification else {
        Terminal.writeOutput(Text.json(result))
        return
      }
      Terminal.writeOutput(Text.json(Verified(result: result, verification: verification)))
      return
    }
    defer {
      if let verification {
        if !verification.passed, let notLoaded { Terminal.writeError(notLoaded + "\n") }
        Terminal.writeError(Self.text(verification))
      } else if let notLoaded, !quiet {
        Terminal.writeError("note: " + notLoaded + "\n")
      }
    }
    // --quiet: errors and warnings only, no notes.
    for warning in result.warnings.map(\.description) where !(quiet && warning.hasPrefix("note:")) {
      Terminal.writeError(
        warning.hasPrefix("note:") || warning.hasPrefix("warning:") ? "\(warning)\n" : "warning: \(warning)\n")
    }
    if quiet { return }
    // Names blocked, and the file's entries added and removed (an RPZ name is two entries, a dnsmasq
    // line may hold several names): two counts, never mixed in one.
    let counts = "\(result.names.counted("name")); entries +\(result.added.grouped) −\(result.removed.grouped)"
    var line: String
    if result.dryRun {
      line = "Would apply profile \(result.profile) to \(result.path): \(counts); nothing written (--dry-run)."
    } else if result.wrote {
      line = "Applied profile \(result.profile) to \(result.path): \(counts)."
      if let backup = result.backup { line += " Backup: \(backup)." }
    } else {
      line =
        "\(result.path) already holds profile \(result.profile) (\(result.names.counted("name"))): nothing to write."
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

  /// The verification in lines: the summary, then each name not blocked with its likely cause.
  static func text(_ verification: Verification) -> String {
    var text = "\(verification.summary) (through \(verification.target), \(verification.milliseconds) ms)\n"
    for miss in verification.notBlocked {
      text += "  not blocked: \(miss.name) (\(miss.outcome.rawValue): \(miss.reason)): \(miss.cause)\n"
    }
    for miss in verification.stillBlocked {
      let what = miss.kind == .removedStillBlocked ? "removed but blocked" : "allowed but blocked"
      text += "  \(what): \(miss.name) (\(miss.reason)): \(miss.cause)\n"
    }
    for control in verification.controls where control.outcome != .reachable {
      text += "  control \(control.name): \(control.outcome.rawValue) (\(control.reason))\n"
    }
    return text
  }
}

/// `apply --json --verify`: the result's fields and the verification.
struct Verified: Encodable {
  var result: Applier.Result
  var verification: Verification

  func encode(to encoder: any Encoder) throws {
    try result.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(verification, forKey: .verification)
  }

  private enum Key: String, CodingKey { case verification }
}
