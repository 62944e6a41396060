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

  /// The file a target writes: the configured hosts file, or the server's drop-in.
  func managedFile(for target: Target) -> ManagedFile {
    ApplyDestination.file(
      for: target, hostsFile: configuration.hostsFile,
      dropInDirectory: configuration.dropInDirectory, keepBackups: configuration.keepBackups,
      data: configuration.data)
  }

  /// Applies (or with `dryRun` previews) the profile to the request's target.
  func apply(_ body: APIRequest.Apply, dryRun: Bool) async throws -> ApplyView {
    let target = try Self.target(body.target)
    let server = target.server
    let file = managedFile(for: target)
    // The system resolver's caches are flushed after writing /etc/hosts, as `apply --flush` does.
    let flush = server == nil && Ledger.key(file.path) == "/etc/hosts"
    let applied = try await Applier(store: store, file: file).apply(
      Applier.Options(
        server: server, dryRun: dryRun, force: body.force?.value ?? false, flush: flush, verify: server != nil))
    let lines = applied.change.diffText(skipping: server == nil ? { _ in false } : ServerTarget.isVolatile)
      .split(separator: "\n", omittingEmptySubsequences: true)
    var view = ApplyView(
      result: applied.result, warnings: applied.result.warnings.map(WebAdvice.text),
      diff: lines.prefix(JSONResponse.diffLimit).joined(separator: "\n"),
      diffOmitted: max(0, lines.count - JSONResponse.diffLimit))
    if !dryRun {
      (view.verification, view.verificationNote) = await verify(applied, target: target)
      // A drop-in its server has not confirmed loading: what fails is the reload, which the dashboard
      // does not do.
      if view.verification?.passed == false, let server = target.server,
        let line = ApplyVerification.notLoadedLine(applied, server: server.server)
      {
        view.verificationNote = line + ": reload the server (as the Apply page's instructions say), then apply again."
      }
      if let verification = view.verification {
        view.verification?.notBlocked = verification.notBlocked.map { miss in
          var miss = miss
          miss.cause = WebAdvice.cause(miss)
          return miss
        }
      }
    }
    return view
  }

  /// Probes a sample of the names just applied through the target, as `sanehosts apply --verify` does: the
  /// system resolver for the hosts file, the Test page's DNS server for a drop-in.
  func verify(_ applied: Applier.Applied, target: Target) async -> (Verification?, String?) {
    let settings = Settings.load(from: configuration.data)
    let server = target == .hosts ? nil : try? ServerAddress(parsing: settings.resolver)
    if let obstacle = ApplyVerification.obstacle(target: target, path: applied.result.path, server: server) {
      return (
        nil,
        target == .hosts
          ? "Not verified: \(obstacle)."
          : "Not verified: set the DNS server that loads the drop-in on the Test page (DNS server), then apply again."
      )
    }
    do {
      return (
        try await ApplyVerification.verify(
          applied, target: target, through: server, in: store, timeout: .milliseconds(Int(settings.timeout * 1000))),
        nil
      )
    } catch {
      return (nil, "Not verified: the names applied could not be read back: \(error.localizedDescription)")
    }
  }

  /// The backups of a target's file, newest first.
  func backups(of target: Target) -> [BackupView] {
    managedFile(for: target).backups.list().map { backup in
      BackupView(
        id: backup.id, date: backup.date,
        bytes: (try? FileManager.default.attributesOfItem(atPath: backup.url.path)[.size] as? Int) ?? 0)
    }
  }

  /// Restores a backup of a target's file.
  func restore(_ body: APIRequest.Restore) throws -> ManagedFile.Outcome {
    let file = managedFile(for: try Self.target(body.target))
    try file.checkWritable()
    return try file.restore(body.id).1
  }
}
