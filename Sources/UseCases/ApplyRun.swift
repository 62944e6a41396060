import Apply
import BlockerTest
import DNS
import Foundation
import Store

/// Applying a profile to a target and, when asked, checking it through the target: the one flow of
/// `sanehosts apply [--verify]` and the dashboard's Apply page, which differ only in how they ask and
/// what they print.
public struct ApplyRun: Sendable {
  /// How to verify what was written.
  public struct Verify: Sendable {
    /// The DNS server that loads a drop-in; nil for the hosts file (the system resolver).
    public var server: ServerAddress?
    /// Names sampled.
    public var sample: Int
    /// How long each answer may take.
    public var timeout: Duration

    /// A verification request.
    public init(server: ServerAddress?, sample: Int = ApplyVerification.defaultSample, timeout: Duration = .seconds(2))
    {
      self.server = server
      self.sample = sample
      self.timeout = timeout
    }
  }

  /// What happened.
  public struct Outcome: Sendable {
    /// What was written (or would be, on a dry run), and the reload's result.
    public var applied: Applier.Applied
    /// The verification, when it was asked for and could run.
    public var verification: Verification?
    /// Why it was asked for but not run: no resolver reads the file (`ApplyVerification.obstacle`), in
    /// words that name no option.
    public var notVerified: String?
    /// `written, not loaded: …` when the server has not confirmed loading the file.
    public var notLoaded: String?
  }

  /// The file was applied, but the names it holds could not be read back to verify it.
  public struct ReadBackFailure: Error, LocalizedError {
    /// What was applied (and not verified).
    public var outcome: Outcome
    /// Why the names could not be read.
    public var underlying: any Error

    public var errorDescription: String? {
      "\(outcome.applied.result.path) was applied, but the names it holds could not be read back to verify it: \(underlying.localizedDescription)"
    }
    public var recoverySuggestion: String? { "Run `sanehosts update`, then apply again with --verify." }
  }

  /// The store the profile is read from.
  public var store: Store
  /// The file written.
  public var file: ManagedFile
  /// The target it is written as.
  public var target: Target
  /// How it is applied.
  public var options: Applier.Options
  /// How it is verified; nil: not.
  public var verify: Verify?
  /// A dry run previewing what another, privileged process will write: this one need not be able to.
  public var previewForAnother = false

  /// A run; `options.verify` follows `verify`.
  public init(store: Store, file: ManagedFile, target: Target, options: Applier.Options, verify: Verify?) {
    self.store = store
    self.file = file
    self.target = target
    self.options = options
    self.options.verify = verify != nil
    self.verify = verify
  }

  /// Applies, then verifies unless it was a dry run, the reload failed, or nothing reads the file.
  /// Throws what the apply throws, and `ReadBackFailure` (with what was applied) when the names applied
  /// cannot be read back for the verification.
  public func run() async throws -> Outcome {
    let started = ContinuousClock.now
    var applier = Applier(store: store, file: file)
    applier.previewForAnother = previewForAnother
    let applied = try await applier.apply(options)
    let obstacle = verify.flatMap {
      ApplyVerification.obstacle(target: target, path: applied.result.path, server: $0.server)
    }
    if !options.dryRun {
      // How it was applied, for `reapply` (and how long it took, for the metrics); a ledger that cannot
      // take it costs only that. A verification nothing can do (the hosts file at another path than the
      // system resolver reads) is not recorded: a reapply would fail it every time, and retry forever.
      let recipe = Ledger.Recipe(
        options: options, verify: verify != nil && obstacle == nil, verifyServer: verify?.server,
        seconds: (ContinuousClock.now - started) / .seconds(1))
      try? file.ledger.recordRecipe(recipe, for: applied.result.path)
    }
    var outcome = Outcome(applied: applied)
    if let server = target.server {
      outcome.notLoaded = ApplyVerification.notLoadedLine(applied, server: server.server)
    }
    guard let verify, !options.dryRun, applied.reloadFailure == nil else { return outcome }
    if let obstacle {
      outcome.notVerified = obstacle
      return outcome
    }
    do {
      outcome.verification = try await ApplyVerification.verify(
        applied, target: target, through: verify.server, in: store, sample: verify.sample, timeout: verify.timeout)
    } catch {
      throw ReadBackFailure(outcome: outcome, underlying: error)
    }
    return outcome
  }
}
