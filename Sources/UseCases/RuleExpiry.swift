import Files
import Foundation
import Store

/// Allow rules for a while: each rule whose end has come is removed, and the profiles they belonged to
/// applied again to every place they are applied to (`Reapply`).
///
/// A reapply that fails (a server down, a Pi-hole unreachable) is remembered in the data directory
/// (`reapply.pending`) and tried again by every later run, until it succeeds: the rule is gone from the
/// store at once, and no place keeps letting its names through unnoticed.
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
    /// Whether every reapply succeeded (true when there was none).
    public var succeeded: Bool { reapply?.succeeded ?? true }
  }

  /// Removes the rules ended at `now` and applies their profiles again.
  public func run(now: Date) async throws(StoreError) -> Outcome {
    let ended = try store.removeEndedRules(at: now)
    var outcome = Outcome()
    outcome.ended = ended.map {
      Ended(profile: $0.profile, rule: $0.rule.text, endedAt: $0.rule.expiresAt ?? now)
    }
    let profiles = Set(ended.map(\.profile)).union(pending())
    guard !profiles.isEmpty else { return outcome }
    outcome.profiles = profiles.sorted()
    let reapply = await Reapply(
      store: store, profiles: profiles, sessions: sessions, settle: settle, limits: limits
    ).run()
    outcome.reapply = reapply
    remember(Set(reapply.places.filter(\.failed).map(\.profile)))
    return outcome
  }

  /// The file naming the profiles whose reapply failed.
  var pendingFile: URL { store.directory.file("reapply.pending") }

  /// The profiles a failed run left to apply again.
  func pending() -> Set<String> {
    guard let data = try? Data(contentsOf: pendingFile) else { return [] }
    return Set((try? JSONCoding.decode([String].self, from: data)) ?? [])
  }

  /// Keeps `profiles` for the next run, or removes the file when there are none.
  func remember(_ profiles: Set<String>) {
    guard !profiles.isEmpty, let data = try? JSONCoding.encode(profiles.sorted()) else {
      try? FileManager.default.removeItem(at: pendingFile)
      return
    }
    try? StagedFile.replace(pendingFile.path, with: Array(data), mode: 0o600)
  }
}
