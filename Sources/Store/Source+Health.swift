import Blocklists
import Foundation

extension Source {
  /// Why a source looks stale: its content has not changed, or its own header dates it, for too long.
  public struct Staleness: Sendable, Hashable, Codable {
    /// What dates it.
    public enum Reason: String, Sendable, Hashable, Codable {
      /// Every update since `since` found the same content (304 or the same SHA-256).
      case unchanged
      /// The list's own header says it was made at `since`.
      case headerDate
    }

    public var reason: Reason
    /// The date that makes it stale.
    public var since: Date
    /// Whole days from `since` to now.
    public var days: Int

    /// “unchanged for 45 days”, “its header dates it 2022-07-24 (1,220 days ago)”.
    public var description: String {
      switch reason {
      case .unchanged: "its content has not changed for \(days.grouped) days"
      case .headerDate:
        "its header dates it \(since.formatted(.iso8601.year().month().day())) (\(days.grouped) days ago)"
      }
    }
  }

  /// Whether the source's last good copy is stale: its own header date, or the last change of its
  /// content, more than `days` days before `now`; the header is named first, being the list's own word.
  public func staleness(days: Int, now: Date = Date()) -> Staleness? {
    guard cacheFile != nil else { return nil }
    let limit = Double(days) * 86_400
    func whole(_ date: Date) -> Int { Int(now.timeIntervalSince(date) / 86_400) }
    if let headerDate, now.timeIntervalSince(headerDate) > limit {
      return Staleness(reason: .headerDate, since: headerDate, days: whole(headerDate))
    }
    if let lastChange, now.timeIntervalSince(lastChange) > limit {
      return Staleness(reason: .unchanged, since: lastChange, days: whole(lastChange))
    }
    return nil
  }

  /// Distinct names now and in the previous copy, and the change; nil parts when unknown.
  public var trend: (now: Int?, before: Int?, change: Int?) {
    (unique, previousUnique, unique.flatMap { now in previousUnique.map { now - $0 } })
  }
}
