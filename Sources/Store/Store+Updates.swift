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
          if let old = source.cacheFile, old != copy.cacheFile { replaced.append(old) }
          try db.execute(sql: "DELETE FROM sourceName WHERE sourceID = ?", arguments: [update.sourceID])
          try Self.insertNames(from: copy.namesFile, source: update.sourceID, db)
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

  /// Inserts a names file (one sorted name per line) for a source.
  ///
  /// The names travel as one JSON array through `json_each`, a single statement per source: binding
  /// each name on its own costs several times more than SQLite's own work.
  private static func insertNames(from file: URL, source: Int64, _ db: Database) throws {
    let data = try Data(contentsOf: file, options: .alwaysMapped)
    var json = [UInt8]()
    json.reserveCapacity(data.count + data.count / 8 + 4)
    json.append(UInt8(ascii: "["))
    var open = false
    for byte in data {
      if byte == UInt8(ascii: "\n") {
        if open {
          json.append(UInt8(ascii: "\""))
          open = false
        }
        continue
      }
      if !open {
        if json.count > 1 { json.append(UInt8(ascii: ",")) }
        json.append(UInt8(ascii: "\""))
        open = true
      }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
        json.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
      } else {
        json.append(byte)
      }
    }
    if open { json.append(UInt8(ascii: "\"")) }
    json.append(UInt8(ascii: "]"))
    try Task.checkCancellation()
    try db.execute(
      sql: "INSERT OR IGNORE INTO sourceName (sourceID, name) SELECT ?, value FROM json_each(?)",
      arguments: [source, String(decoding: json, as: UTF8.self)])
  }

  /// The saved compiled list of a profile, if it has been compiled.
  public func compiled(_ profile: Profile) throws(StoreError) -> CompiledProfile? {
    try read { db in try CompiledProfile.fetchOne(db, key: profile.id) }
  }

  /// The latest runs of a profile (of every profile when nil), newest first.
  public func runs(of profile: Profile? = nil, limit: Int = 20) throws(StoreError) -> [UpdateRun] {
    try read { db in
      var request = UpdateRun.order(Column("id").desc).limit(limit)
      if let profile { request = request.filter(Column("profileID") == profile.id) }
      return try request.fetchAll(db)
    }
  }

  /// Files of the data directory that the database refers to.
  public func referencedFiles() throws(StoreError) -> Set<String> {
    try read { db in
      Set(
        try String.fetchAll(db, sql: "SELECT cacheFile FROM source WHERE cacheFile IS NOT NULL")
          + String.fetchAll(db, sql: "SELECT file FROM compiledProfile"))
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
