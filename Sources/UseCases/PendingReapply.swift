import Files
import Foundation
import Store

/// A profile whose reapply failed, kept in the data directory (`reapply.pending`) and tried again with a
/// growing wait: what `status`, the dashboard's Overview and the log of `serve` show, with its reason.
///
/// `sanehosts reapply --drop-pending` drops it (the places keep what they hold; nothing retries).
public struct PendingReapply: Sendable, Hashable, Codable {
  /// The profile to apply again.
  public var profile: String
  /// When its reapply first failed.
  public var since: Date
  /// How many reapplies failed in a row.
  public var attempts: Int
  /// When it is tried next.
  public var nextTry: Date
  /// Why the last one failed: each failed place and its line.
  public var reason: String

  /// A pending reapply.
  public init(profile: String, since: Date, attempts: Int, nextTry: Date, reason: String) {
    self.profile = profile
    self.since = since
    self.attempts = attempts
    self.nextTry = nextTry
    self.reason = reason
  }

  /// The wait after `attempts` failures in a row: a minute, doubling, at most an hour (a server that stays
  /// down is not reloaded and asked every minute for ever).
  public static func backoff(after attempts: Int) -> TimeInterval {
    min(3600, 60 * pow(2, Double(max(0, min(attempts, 20) - 1))))
  }

  /// The file, in `data`.
  public static func file(in data: DataDirectory) -> URL { data.file("reapply.pending") }

  /// The pending reapplies recorded in `data`, by profile; a list of names written by an earlier version
  /// reads as due now.
  public static func all(in data: DataDirectory) -> [PendingReapply] {
    guard let bytes = try? Data(contentsOf: file(in: data)) else { return [] }
    if let all = try? JSONCoding.decode([PendingReapply].self, from: bytes) { return all }
    let names = (try? JSONCoding.decode([String].self, from: bytes)) ?? []
    return names.map {
      PendingReapply(
        profile: $0, since: .distantPast, attempts: 1, nextTry: .distantPast, reason: "left by an earlier run")
    }
  }

  /// Records `all` in `data` (the file removed when empty).
  static func save(_ all: [PendingReapply], in data: DataDirectory) {
    let url = file(in: data)
    guard !all.isEmpty, let bytes = try? JSONCoding.encode(all.sorted { $0.profile < $1.profile }) else {
      try? FileManager.default.removeItem(at: url)
      return
    }
    try? StagedFile.replace(url.path, with: Array(bytes), mode: 0o600)
  }

  /// Drops the pending reapplies of `profile` (every one when nil); returns those dropped.
  @discardableResult
  public static func drop(profile: String? = nil, in data: DataDirectory) -> [PendingReapply] {
    let all = Self.all(in: data)
    let dropped = all.filter { profile == nil || $0.profile == profile }
    save(all.filter { !dropped.contains($0) }, in: data)
    return dropped
  }

  /// The record after a run at `now` that failed again for `reason` (`previous` nil: the first failure).
  static func failed(_ profile: String, previous: PendingReapply?, reason: String, now: Date) -> PendingReapply {
    let attempts = (previous?.attempts ?? 0) + 1
    return PendingReapply(
      profile: profile, since: previous?.since ?? now, attempts: attempts,
      nextTry: now.addingTimeInterval(backoff(after: attempts)), reason: reason)
  }

  /// One line: `profile default: 3 failed reapplies since …; next try …: REASON`.
  public var description: String {
    let since = self.since == .distantPast ? "" : " since \(self.since.formatted(.iso8601))"
    return
      "profile \(profile): \(attempts) failed reappl\(attempts == 1 ? "y" : "ies")\(since), next try \(nextTry.formatted(.iso8601)): \(reason)"
  }
}
