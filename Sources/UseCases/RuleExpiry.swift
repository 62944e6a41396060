import Foundation
import Store

/// Allow rules for a while: each rule whose end has come is removed, and the profiles they belonged to
/// applied again to every place they are applied to (`Reapply`).
///
/// A reapply that fails (a server down, a Pi-hole unreachable) is remembered in the data directory with
/// its reason (`PendingReapply`) and tried again by later runs, a minute later, then waiting twice as
/// long each time up to an hour, until it succeeds or is dropped: the rule is gone from the store at
/// once, and no place keeps letting its names through unnoticed.
public struct RuleExpiry: Sendable {
  /// The store.
  public var store: Store
  /// How the fleet's Pi-holes are signed in to.
  public var sessions: (any PiholeSessions)?
  /// How long a fleet's replica may take to show the change.
  public var settle: Duration
  /// What the reapply may take from the store (`Reapply.Limits.forProcess`).
  public var limits: Reapply.Limits

  /// An expiry.
  public init(
    store: Store, sessions: (any PiholeSessions)? = nil, settle: Duration = .seconds(10),
    limits: Reapply.Limits = .none
  ) {
    self.limits = limits
    self.store = store
    self.sessions = sessions
    self.settle = settle
  }

  /// A rule that ended.
  public struct Ended: Sendable, Hashable, Encodable {
    /// Its profile.
    public var profile: String
    /// The rule as written (`=example.com`).
    public var rule: String
    /// When it was to end.
    public var endedAt: Date
  }

  /// What a run did.
  public struct Outcome: Sendable, Encodable {
    /// The rules removed.
    public var ended: [Ended] = []
    /// The profiles applied again (those of the rules ended, and any pending from a failed run).
    public var profiles: [String] = []
    /// What the reapply did; nil when nothing ended and nothing was pending.
    public var reapply: Reapply.Outcome?
    /// The reapplies left pending after this run, with their reasons and next tries.
    public var pending: [PendingReapply] = []
    /// Whether every reapply succeeded (true when there was none).
    public var succeeded: Bool { reapply?.succeeded ?? true }
  }

  /// Removes the rules ended at `now` and applies their profiles again, and those pending whose next try
  /// has come.
  public func run(now: Date) async throws(StoreError) -> Outcome {
    let ended = try store.removeEndedRules(at: now)
    var outcome = Outcome()
    outcome.ended = ended.map {
      Ended(profile: $0.profile, rule: $0.rule.text, endedAt: $0.rule.expiresAt ?? now)
    }
    let pending = PendingReapply.all(in: store.directory)
    let due = pending.filter { $0.nextTry <= now }.map(\.profile)
    let profiles = Set(ended.map(\.profile)).union(due)
    guard !profiles.isEmpty else { return outcome }
    outcome.profiles = profiles.sorted()
    let reapply = await Reapply(
      store: store, profiles: profiles, sessions: sessions, settle: settle, limits: limits
    ).run()
    outcome.reapply = reapply
    var kept = pending.filter { !profiles.contains($0.profile) }
    for profile in profiles.sorted() {
      let failures = reapply.places.filter { $0.failed && $0.profile == profile }
      guard !failures.isEmpty else { continue }
      let reason = failures.map { "\($0.target) \($0.path): \($0.line)" }.joined(separator: "; ")
      kept.append(
        .failed(profile, previous: pending.first { $0.profile == profile }, reason: reason, now: now))
    }
    PendingReapply.save(kept, in: store.directory)
    outcome.pending = kept
    return outcome
  }

  /// The profiles a failed run left to apply again.
  func pending() -> Set<String> { Set(PendingReapply.all(in: store.directory).map(\.profile)) }
}
