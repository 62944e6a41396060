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
        source.lastAttempt = update.attemptedAt
        switch update.change {
        case .updated(let copy):
          if let old = source.cacheFile, old != copy.cacheFile {
            replaced += [old, Self.listFile(forCopy: old)]
          }
          source.status = .updated
          source.message = nil
          source.etag = copy.etag
          source.lastModified = copy.lastModified
          source.sha256 = copy.sha256
          source.cacheFile = copy.cacheFile
          source.lastSuccess = update.attemptedAt
          source.lastChange = update.attemptedAt
          source.bytes = copy.bytes
          source.accepted = copy.accepted
          source.unique = copy.unique
          source.duplicates = copy.duplicates
          source.rejected = copy.rejected
          source.detectedFormat = copy.detectedFormat
          source.findings = copy.findings
        case .unchanged(let etag, let lastModified):
          source.status = .unchanged
          source.message = nil
          source.lastSuccess = update.attemptedAt
          if etag != nil || lastModified != nil {
            source.etag = etag
            source.lastModified = lastModified
          }
        case .failed(let message):
          source.status = .failed
          source.message = message
        }
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
      let copies = try String.fetchAll(db, sql: "SELECT cacheFile FROM source WHERE cacheFile IS NOT NULL")
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
