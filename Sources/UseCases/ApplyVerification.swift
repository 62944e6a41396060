import Apply
import BlockerTest
import DNS
import Foundation
import Store

/// Checking what an apply wrote through the resolver that reads it, once for `apply --verify` and the
/// dashboard's Apply page: the hosts file through the system resolver, a drop-in through the DNS server
/// that loads it.
public enum ApplyVerification {
  /// Names sampled unless told.
  public static let defaultSample = 50

  /// Why `target`'s file at `path` cannot be verified through `server` (nil: the system resolver), or
  /// nil when it can. The words name no option: the command line and the dashboard each add their own.
  public static func obstacle(target: Target, path: String, server: ServerAddress?) -> String? {
    switch target {
    case .hosts:
      if server != nil { return "the hosts file is verified through the system resolver, not a DNS server" }
      if Ledger.key(path) != "/etc/hosts" { return "the system resolver reads /etc/hosts, not \(path)" }
      return nil
    case .server:
      return server == nil ? "a drop-in is verified through the DNS server that loads it, which is not given" : nil
    }
  }

  /// Probes what `applied` wrote: every name added since the state the server last confirmed loading
  /// (then a seeded sample of the others, `sample` in all), the names let through under a blocked parent,
  /// a sample of the names taken out since, and the controls, through `server` (nil: the system
  /// resolver), after the target's settle time when it was reloaded. When it passes, the file as it is
  /// becomes the state the server confirmed loading. Throws when the names applied cannot be read back.
  public static func verify(
    _ applied: Applier.Applied, target: Target, through server: ServerAddress?, in store: Store,
    sample: Int = defaultSample, timeout: Duration = .seconds(2)
  ) async throws -> Verification {
    let all = try await applied.verifiable(in: store)
    let names = Verification.sample(all, added: applied.addedNames, count: sample, seed: 1)
    let removed = Verification.sample(applied.removedNames(applied: all), count: sample, seed: 1)
    let reloaded = applied.result.reloaded != nil
    let context = Verification.Context(
      reloaded: target == .hosts || applied.writtenNotLoaded == nil, server: target != .hosts,
      path: applied.result.path)
    let verification = await Verification.verify(
      names, allowed: Array(applied.allowedNames.prefix(sample)), removed: removed, through: server,
      context: context, timeout: timeout, settle: reloaded ? target.server?.settleAfterReload ?? .zero : .zero)
    if verification.passed { try? applied.confirmLoaded() }
    return verification
  }

  /// What a failed verification of a file its server has not confirmed loading says first:
  /// `written, not loaded: …` (nil when the server loaded it, or it was reloaded now).
  public static func notLoadedLine(_ applied: Applier.Applied, server: String) -> String? {
    guard let date = applied.writtenNotLoaded else { return nil }
    return
      "written, not loaded: \(applied.result.path) was written \(date.formatted(.iso8601)) and \(server) has not confirmed loading it since (no reload succeeded, no verification passed)"
  }
}
