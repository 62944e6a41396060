import Blocklists
import Foundation
import GRDB

/// List health: a held-back copy accepted, and what changed between two copies of a source.
extension Store {
  /// The names one copy of a source has and another has not.
  public struct CopyDifference: Sendable, Hashable, Codable {
    /// The source's key.
    public var source: String
    /// Which copies: `previous → current`, or `current → held`.
    public var from: String
    public var to: String
    /// Distinct names in each copy.
    public var before: Int
    public var after: Int
    /// Names only the newer copy has, and only the older one, in list order; `added` and `removed`
    /// may be cut to a limit, the counts never are.
    public var addedCount: Int
    public var removedCount: Int
    public var added: [String]
    public var removed: [String]
    /// When the newer copy became current (nil for a held copy).
    public var changedAt: Date?
  }

  /// Makes a source's held-back copy (a suspicious shrink) its good copy: the current one becomes the
  /// previous copy. Takes the update lock, so it never races an update. Returns the source as saved.
  @discardableResult
  public func acceptHeldCopy(_ reference: String, in profile: String? = nil) async throws(StoreError) -> Source {
    let lock = try UpdateLock.acquire(directory)
    defer { withExtendedLifetime(lock) {} }
    let (accepted, replaced) = try promoteHeldCopy(reference, in: profile)
    removeFiles(replaced)
    // Its distinct names, counted as its block set file is written.
    guard let list = await list(of: accepted, rebuilding: true), let report = list.sources.first else {
      return accepted
    }
    return try saveCounts(of: accepted.id, report) ?? accepted
  }

  private func promoteHeldCopy(_ reference: String, in profile: String?) throws(StoreError) -> (Source, [String]) {
    try write { db in
      let profile = try Self.profile(profile, db)
      var source = try Self.member(reference, of: profile, db)
      guard let held = source.heldCopy else {
        throw StoreError.invalid(value: source.key, reason: "has no copy held back: there is nothing to accept")
      }
      let replaced = Self.record(.updated(held), at: Date(), on: &source)
      try source.update(db)
      return (source, replaced)
    }
  }

  private func saveCounts(of id: Int64, _ report: SourceReport) throws(StoreError) -> Source? {
    try write { db in
      guard var source = try Source.fetchOne(db, id: id) else { return nil }
      source.unique = report.unique
      source.duplicates = report.duplicates
      try source.update(db)
      return source
    }
  }

  /// What the last update changed in a source's names (previous copy → current), or, with `held`, what
  /// its held-back copy would change (current → held); nil when there is no such second copy yet.
  /// `limit` cuts the lists of names (nil: all).
  public func difference(
    of reference: String, in profile: String? = nil, held: Bool = false, limit: Int? = nil
  ) async throws(StoreError) -> CopyDifference? {
    let source = try read { db in try Self.member(reference, of: try Self.profile(profile, db), db) }
    guard let current = source.cacheFile, let currentSha = source.sha256 else { return nil }
    let older: (file: String, sha: String)
    let newer: (file: String, sha: String)
    if held {
      guard let copy = source.heldCopy else { return nil }
      (older, newer) = ((current, currentSha), (copy.cacheFile, copy.sha256))
    } else {
      guard let previous = source.previousCacheFile, let previousSha = source.previousSha256 else { return nil }
      (older, newer) = ((previous, previousSha), (current, currentSha))
    }
    guard
      let before = await list(copy: older.file, sha256: older.sha, format: source.format, name: source.key),
      let after = await list(copy: newer.file, sha256: newer.sha, format: source.format, name: source.key)
    else {
      throw StoreError.invalid(
        value: source.key, reason: "has a copy that cannot be read any more; run `sanehosts update --force`")
    }
    var added: [String] = []
    var removed: [String] = []
    var addedCount = 0
    var removedCount = 0
    for name in after.allNames where !before.blocks(name) {
      addedCount += 1
      if limit.map({ added.count < $0 }) ?? true { added.append(name) }
    }
    for name in before.allNames where !after.blocks(name) {
      removedCount += 1
      if limit.map({ removed.count < $0 }) ?? true { removed.append(name) }
    }
    return CopyDifference(
      source: source.key, from: held ? "current" : "previous", to: held ? "held" : "current", before: before.count,
      after: after.count, addedCount: addedCount, removedCount: removedCount, added: added, removed: removed,
      changedAt: held ? nil : source.lastChange)
  }
}
