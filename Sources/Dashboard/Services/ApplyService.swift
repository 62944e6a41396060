import Apply
import BlockerTest
import DNS
import Foundation
import Store
import UseCases

/// Applying the active profile to a target from the dashboard: the file a target writes, a preview or an
/// apply (verified as `sanehosts apply --verify` does), the file's backups.
struct ApplyService: Sendable {
  /// Where the dashboard writes (hosts file, drop-in folder, backups kept) and its data directory.
  let configuration: DashboardConfiguration
  /// The store.
  let store: Store

  /// A target by name; none (or empty) is the hosts file.
  static func target(_ text: String?) throws(DashboardError) -> Target {
    guard let text, !text.isEmpty else { return .hosts }
    guard let target = Target(name: text) else {
      throw .badRequest("Unknown target \"\(text)\": use \(Target.names).")
    }
    return target
  }

  /// Whether this process is refused writing `file` (its folder exists: a missing one is the apply's own error).
  static func mayNotWrite(_ file: ManagedFile) -> Bool {
    do {
      try file.checkWritable()
      return false
    } catch {
      if case .notPermitted = error { return true }
      return false
    }
  }

  /// The file a target writes: the configured hosts file, or the server's drop-in.
  func managedFile(for target: Target) -> ManagedFile {
    ApplyDestination.file(
      for: target, hostsFile: configuration.hostsFile,
      dropInDirectory: configuration.dropInDirectory, keepBackups: configuration.keepBackups,
      data: configuration.data)
  }

  /// Applies (or with `dryRun` previews) the profile to the request's target, verified as `sanehosts
  /// apply --verify` does (`ApplyRun`): the hosts file through the system resolver, a drop-in through the
  /// Test page's DNS server.
  func apply(_ body: APIRequest.Apply, dryRun: Bool) async throws -> ApplyView {
    let target = try Self.target(body.target)
    let server = target.server
    let file = managedFile(for: target)
    // The system resolver's caches are flushed after writing /etc/hosts, as `apply --flush` does.
    let flush = server == nil && Ledger.key(file.path) == "/etc/hosts"
    let settings = Settings.load(from: configuration.data)
    let verify = ApplyRun.Verify(
      server: target == .hosts ? nil : try? ServerAddress(parsing: settings.resolver),
      timeout: .milliseconds(Int(settings.timeout * 1000)))
    // A file this process may not write (the Debian package runs the dashboard as its own user): the apply
    // is previewed here and asked of the privileged unit (sanehosts-apply.path starts `sanehosts reapply`).
    let mayNotWrite = Self.mayNotWrite(file)
    let requested = !dryRun && mayNotWrite
    if requested {
      try ApplyRequest.submit(
        ApplyRequest(
          target: target.name, path: Ledger.key(file.path), profile: try store.profile(nil).name,
          verifyServer: target == .hosts ? nil : verify.server?.description), in: configuration.data)
    }
    let options = Applier.Options(
      server: server, dryRun: dryRun || requested, force: body.force?.value ?? false, flush: flush)
    let outcome: ApplyRun.Outcome
    var readBackFailure: String?
    do {
      var run = ApplyRun(store: store, file: file, target: target, options: options, verify: verify)
      // A preview of what the privileged unit will write: this process need not be able to.
      run.previewForAnother = mayNotWrite
      outcome = try await run.run()
    } catch let error as ApplyRun.ReadBackFailure {
      (outcome, readBackFailure) = (error.outcome, error.underlying.localizedDescription)
    }
    let applied = outcome.applied
    let lines = applied.change.diffText(skipping: server == nil ? { _ in false } : ServerTarget.isVolatile)
      .split(separator: "\n", omittingEmptySubsequences: true)
    var view = ApplyView(
      result: applied.result, warnings: applied.result.warnings.map(WebAdvice.text),
      diff: lines.prefix(JSONResponse.diffLimit).joined(separator: "\n"),
      diffOmitted: max(0, lines.count - JSONResponse.diffLimit))
    guard !dryRun else { return view }
    if requested {
      view.requested = true
      view.verificationNote =
        "This dashboard may not write \(file.path) (it runs as its own user): the change above was asked of the privileged sanehosts-apply.service, which applies it as root in a moment (`sanehosts status` and /metrics show when). Without the Debian package's units, run `sudo sanehosts reapply`."
      return view
    }
    view.verification = outcome.verification.map { verification in
      var verification = verification
      verification.notBlocked = verification.notBlocked.map { miss in
        var miss = miss
        miss.cause = WebAdvice.cause(miss)
        return miss
      }
      return verification
    }
    if let readBackFailure {
      view.verificationNote = "Not verified: the names applied could not be read back: \(readBackFailure)"
    } else if let obstacle = outcome.notVerified {
      view.verificationNote =
        target == .hosts
        ? "Not verified: \(obstacle)."
        : "Not verified: set the DNS server that loads the drop-in on the Test page (DNS server), then apply again."
    } else if outcome.verification?.passed == false, let line = outcome.notLoaded {
      // A drop-in its server has not confirmed loading: what fails is the reload, which the dashboard
      // does not do.
      view.verificationNote = line + ": reload the server (as the Apply page's instructions say), then apply again."
    }
    return view
  }

  /// The backups of a target's file, newest first.
  func backups(of target: Target) -> [BackupView] {
    managedFile(for: target).backups.list().map { BackupView(id: $0.id, date: $0.date, bytes: $0.bytes) }
  }

  /// Restores a backup of a target's file.
  func restore(_ body: APIRequest.Restore) throws -> ManagedFile.Outcome {
    let file = managedFile(for: try Self.target(body.target))
    try file.checkWritable()
    return try file.restore(body.id).1
  }
}
