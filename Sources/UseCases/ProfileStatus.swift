import BlockerTest
import Blocklists
import Foundation
import Store

/// A profile's status as `sanehosts status` and the dashboard's overview show it: the snapshot read in
/// one transaction and what needs attention, as data each front end words in its own terms.
public struct ProfileStatus: Sendable {
  /// Something that needs attention.
  public enum Warning: Sendable, Hashable {
    /// The profile has no source.
    case noSources(profile: String)
    /// Every source is disabled.
    case allDisabled
    /// A source's last update failed (its previous copy, if any, is used).
    case failed(source: String, message: String?)
    /// A source has no saved copy yet.
    case neverDownloaded(source: String)
    /// A source has not been updated successfully for more than the stale limit.
    case stale(source: String, lastSuccess: Date, days: Int)
    /// A source's content has not changed, or its own header dates it, for more than the stale limit.
    case contentStale(source: String, staleness: Source.Staleness)
    /// A source's copy in use came from a mirror: its own location failed the last time it was tried.
    case servedByMirror(source: String, mirror: String)
    /// A source's new copy was held back as a suspicious shrink; its previous copy is used.
    case heldBack(source: String, names: Int, previous: Int?)
    /// A source's copy looks like something else than a list.
    case notAList(source: String, kind: Findings.ContentKind)
    /// The profile has sources but was never compiled.
    case notCompiled
    /// Copies or rules changed since the last compile.
    case changedSinceCompile
    /// The last blocker test scored weak.
    case weakTest
    /// A reapply failed and is tried again (`PendingReapply`).
    case reapplyPending(PendingReapply)

    /// The warning in the command line's words.
    public var description: String {
      switch self {
      case .noSources:
        "The profile has no sources: add some with `sanehosts sources add` (see `sanehosts catalog`)."
      case .allDisabled: "Every source is disabled: enable one with `sanehosts sources enable NAME`."
      case .failed(let source, let message): "\(source) failed: \(message ?? "unknown reason")"
      case .neverDownloaded(let source): "\(source) has never been downloaded: run `sanehosts update`."
      case .stale(let source, _, let days): "\(source) is stale: last updated \(days) days ago."
      case .contentStale(let source, let staleness): "\(source) may be stale: \(staleness.description)."
      case .servedByMirror(let source, let mirror):
        "\(source) is served by its mirror \(mirror) only: its own URL failed at the last update (see `sanehosts sources list`); check whether the list has moved."
      case .heldBack(let source, let names, let previous):
        "\(source): a new copy with \(names) names (the copy in use has \(previous.map(String.init) ?? "more")) is held back as a suspicious shrink: compare with `sanehosts sources diff \(source) --held`, take it with `sanehosts sources accept \(source)`."
      case .notAList(let source, let kind): "\(source) \(kind.advice)"
      case .notCompiled: "The profile has not been compiled yet: run `sanehosts update`."
      case .changedSinceCompile: "Sources, rules or copies changed since the last compile: run `sanehosts update`."
      case .weakTest: "The last blocker test scored weak: `sanehosts history show` lists what was not blocked."
      case .reapplyPending(let pending):
        "A reapply is pending, \(pending.description). It is tried again by itself; `sanehosts reapply --profile \(pending.profile)` tries now, `sanehosts reapply --drop-pending --profile \(pending.profile)` drops it."
      }
    }
  }

  /// What was read.
  public var snapshot: ProfileSnapshot
  /// What needs attention, in order: the profile, each enabled source, the compile, the last test.
  public var warnings: [Warning]

  /// The days after which a source's content is stale (unchanged, or dated by its own header), by default.
  public static let defaultStaleDays = 30
  /// The days without a successful update after which a source is out of date, by default.
  public static let defaultOutdatedDays = 7

  /// Reads a profile's status (the active profile's when `name` is nil): a source not updated
  /// successfully for more than `outdatedDays` days is out of date; one whose content has not changed,
  /// or whose own header is dated, more than `staleDays` days ago may be stale.
  public init(
    profile name: String? = nil, in store: Store, staleDays: Int = defaultStaleDays,
    outdatedDays: Int = defaultOutdatedDays, now: Date = Date()
  )
    throws(StoreError)
  {
    self.init(
      try store.snapshot(of: name), staleDays: staleDays, outdatedDays: outdatedDays, now: now,
      pending: PendingReapply.all(in: store.directory))
  }

  /// The status of a snapshot, with the reapplies left `pending` (of any profile: each names its own).
  public init(
    _ snapshot: ProfileSnapshot, staleDays: Int = defaultStaleDays, outdatedDays: Int = defaultOutdatedDays,
    now: Date = Date(), pending: [PendingReapply] = []
  ) {
    self.snapshot = snapshot
    warnings =
      pending.map { .reapplyPending($0) }
      + Self.warnings(snapshot, staleDays: staleDays, outdatedDays: outdatedDays, now: now)
  }

  static func warnings(_ snapshot: ProfileSnapshot, staleDays: Int, outdatedDays: Int, now: Date) -> [Warning] {
    var warnings: [Warning] = []
    let enabled = snapshot.sources.filter(\.enabled).map(\.source)
    if snapshot.sources.isEmpty {
      warnings.append(.noSources(profile: snapshot.profile.name))
    } else if enabled.isEmpty {
      warnings.append(.allDisabled)
    }
    for source in enabled {
      if let held = source.heldCopy {
        warnings.append(.heldBack(source: source.key, names: held.accepted, previous: source.accepted))
      } else if source.status == .failed {
        warnings.append(.failed(source: source.key, message: source.message))
      } else if source.cacheFile == nil {
        warnings.append(.neverDownloaded(source: source.key))
      }
      if let success = source.lastSuccess, now.timeIntervalSince(success) > Double(outdatedDays) * 86_400 {
        warnings.append(
          .stale(source: source.key, lastSuccess: success, days: Int(now.timeIntervalSince(success) / 86_400)))
      }
      if let mirror = source.servedFrom { warnings.append(.servedByMirror(source: source.key, mirror: mirror)) }
      if let staleness = source.staleness(days: staleDays, now: now) {
        warnings.append(.contentStale(source: source.key, staleness: staleness))
      }
      if let content = source.findings?.content {
        warnings.append(.notAList(source: source.key, kind: content))
      }
    }
    if !enabled.isEmpty {
      if snapshot.compiled == nil {
        warnings.append(.notCompiled)
      } else if !snapshot.isCompiledListCurrent {
        warnings.append(.changedSinceCompile)
      }
    }
    if let test = snapshot.lastTest,
      Score(blocked: test.blocked, reachable: test.reachable, inconclusive: test.inconclusive).rating == .weak
    {
      warnings.append(.weakTest)
    }
    return warnings
  }
}
