import Foundation
import GRDB

extension Store {
  /// Saves a whole update run in one transaction: every source's new copy or status, the run record and
  /// the profile's compiled list. Cancelling the task before the transaction commits saves nothing.
  ///
  /// Returns the files that no longer belong to anything (copies and compiled lists that were replaced),
  /// to remove once the transaction has committed.
  public func commit(_ updates: [SourceUpdate], run: UpdateRun, compiled: CompiledProfile?) async throws -> [String] {
    try await write { db in
      var replaced: [String] = []
      for update in updates {
        guard var source = try Source.fetchOne(db, id: update.sourceID) else { continue }  // removed meanwhile
        replaced += Self.record(update.change, at: update.attemptedAt, on: &source)
        try source.update(db)
      }
      var run = run
      // A profile deleted meanwhile keeps its runs unlinked, as deleting it does to the earlier ones.
      if let id = run.profileID, try Profile.fetchOne(db, id: id) == nil { run.profileID = nil }
      try run.insert(db)
      if let compiled {
        if let old = try CompiledProfile.fetchOne(db, key: compiled.profileID), old.file != compiled.file {
          replaced.append(old.file)
        }
        if try Profile.fetchOne(db, id: compiled.profileID) != nil { try compiled.save(db) }
      }
      return replaced
    }
  }

  /// Records what an attempt found on a source; returns the files that no longer belong to it.
  ///
  /// A new good copy makes the current one the previous copy (kept for `sources diff`; the one before
  /// goes) and drops a held copy; a held copy is kept beside the current one; an unchanged content
  /// drops a held copy too (the list came back to what is in use).
  static func record(_ change: SourceUpdate.Change, at date: Date, on source: inout Source) -> [String] {
    var replaced: [String] = []
    func files(_ copy: String?) -> [String] { copy.map { [$0, Self.listFile(forCopy: $0)] } ?? [] }
    source.lastAttempt = date
    switch change {
    case .updated(let copy):
      let changed = copy.sha256 != source.sha256
      if let old = source.cacheFile, old != copy.cacheFile {
        if let older = source.previousCacheFile, older != old, older != copy.cacheFile { replaced += files(older) }
        source.previousCacheFile = old
        source.previousSha256 = source.sha256
        source.previousUnique = source.unique
        source.previousAccepted = source.accepted
        source.previousChange = source.lastChange
      }
      // What the source refers to once this is recorded: nothing of it is returned for deletion.
      let kept = [copy.cacheFile, source.previousCacheFile].compactMap { $0 }
      if let held = source.heldCopy?.cacheFile, !kept.contains(held) { replaced += files(held) }
      source.heldCopy = nil
      source.status = .updated
      source.message = nil
      source.etag = copy.etag
      source.lastModified = copy.lastModified
      source.sha256 = copy.sha256
      source.cacheFile = copy.cacheFile
      source.lastSuccess = date
      // The same content again (a forced update) is no change: staleness counts from the real one.
      if changed || source.lastChange == nil { source.lastChange = date }
      source.bytes = copy.bytes
      source.accepted = copy.accepted
      source.unique = copy.unique
      source.duplicates = copy.duplicates
      source.rejected = copy.rejected
      source.detectedFormat = copy.detectedFormat
      source.findings = copy.findings
      source.headerDate = copy.headerDate
      source.servedFrom = copy.servedFrom
    case .held(let copy, let message):
      if let old = source.heldCopy?.cacheFile, old != copy.cacheFile, old != source.cacheFile,
        old != source.previousCacheFile
      {
        replaced += files(old)
      }
      source.heldCopy = copy
      source.status = .failed
      source.message = message
    case .unchanged(let etag, let lastModified, let servedFrom):
      source.servedFrom = servedFrom
      if let held = source.heldCopy?.cacheFile, held != source.cacheFile, held != source.previousCacheFile {
        replaced += files(held)
      }
      source.heldCopy = nil
      source.status = .unchanged
      source.message = nil
      source.lastSuccess = date
      if etag != nil || lastModified != nil {
        source.etag = etag
        source.lastModified = lastModified
      }
    case .failed(let message):
      source.status = .failed
      source.message = message
    }
    return replaced
  }

  /// The saved compiled list of a profile, if it has been compiled.
  public func compiled(_ profile: Profile) throws(StoreError) -> CompiledProfile? {
    try read { db in try CompiledProfile.fetchOne(db, key: profile.id) }
  }

  /// The latest runs of a profile (of every profile when nil), newest first.
  public func runs(of profile: Profile? = nil, limit: Int = 20) throws(StoreError) -> [UpdateRun] {
    try read { db in
      var request = UpdateRun.order(UpdateRun.Columns.id.desc).limit(limit)
      if let profile { request = request.filter(UpdateRun.Columns.profileID == profile.id) }
      return try request.fetchAll(db)
    }
  }

  /// Files of the data directory that the database refers to.
  public func referencedFiles() throws(StoreError) -> Set<String> {
    try read { db in
      var copies = try String.fetchAll(
        db,
        sql:
          "SELECT cacheFile FROM source WHERE cacheFile IS NOT NULL UNION SELECT previousCacheFile FROM source WHERE previousCacheFile IS NOT NULL"
      )
      copies += try Source.fetchAll(db, sql: "SELECT * FROM source WHERE heldCopy IS NOT NULL").compactMap {
        $0.heldCopy?.cacheFile
      }
      let profiles = try String.fetchAll(db, sql: "SELECT file FROM compiledProfile")
      return Set(copies + copies.map(Self.listFile(forCopy:)) + profiles)
    }
  }

  /// Removes files in the list cache and compiled profiles that nothing refers to (left by a crash).
  /// Returns how many were removed.
  @discardableResult
  public func removeUnreferencedFiles() throws(StoreError) -> Int {
    let referenced = try referencedFiles()
    var removed = 0
    for folder in [directory.lists, directory.profiles] {
      let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
      for file in files where !referenced.contains(directory.relativePath(of: file)) {
        if (try? FileManager.default.removeItem(at: file)) != nil { removed += 1 }
      }
    }
    return removed
  }
}
