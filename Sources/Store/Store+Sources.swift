import Blocklists
import Catalog
import Foundation
import GRDB

extension Store {
  /// The sources of a profile (the active one when nil), in the order they were added.
  public func sources(in profile: String? = nil) throws(StoreError) -> [ProfileSource] {
    try read { db in
      let profile = try Self.profile(profile, db)
      return try Self.sources(of: profile, db)
    }
  }

  static func sources(of profile: Profile, _ db: Database) throws -> [ProfileSource] {
    // A cached statement and a cursor: each row is decoded where it lies, its columns found by the
    // statement's index (rows copied out first look every column up by name, lower-casing each time: the
    // dashboard's pages spent a fifth of their time there).
    let statement = try db.cachedStatement(
      sql: """
        SELECT source.*, profileSource.enabled AS profileEnabled FROM source
        JOIN profileSource ON profileSource.sourceID = source.id
        WHERE profileSource.profileID = ? ORDER BY profileSource.position
        """)
    var sources: [ProfileSource] = []
    let rows = try Row.fetchCursor(statement, arguments: [profile.id])
    while let row = try rows.next() {
      sources.append(ProfileSource(source: try Source(row: row), enabled: row["profileEnabled"]))
    }
    return sources
  }

  /// Every source in the store, whichever profiles use it.
  public func allSources() throws(StoreError) -> [Source] {
    try read { try Source.order(Source.Columns.key).fetchAll($0) }
  }

  /// Adds a source to a profile (the active one when nil). A location already in the store is reused.
  /// Returns the source and whether it was new to the store.
  @discardableResult
  public func addSource(_ new: NewSource, to profile: String? = nil) throws(StoreError) -> (source: Source, isNew: Bool)
  {
    // Mirrors given for a source the store has already are added to it first, also when the profile has
    // the source (adding it again then says so, and the mirrors stay).
    if !new.mirrors.isEmpty {
      try write { db in
        guard var existing = try Source.filter(Source.Columns.location == new.location.absoluteString).fetchOne(db)
        else { return }
        let merged = Self.merging(existing.mirrors ?? [], new.mirrors.map(\.absoluteString))
        guard merged != (existing.mirrors ?? []) else { return }
        existing.mirrors = merged
        try existing.update(db)
      }
    }
    return try write { db in
      let profile = try Self.profile(profile, db)
      return try Self.add(new, to: profile, db)
    }
  }

  /// `mirrors` with `more` after them, each once, in order.
  static func merging(_ mirrors: [String], _ more: [String]) -> [String] {
    var seen = Set<String>()
    return (mirrors + more).filter { seen.insert($0).inserted }
  }

  static func add(_ new: NewSource, to profile: Profile, _ db: Database) throws -> (source: Source, isNew: Bool) {
    var isNew = false
    var source: Source
    if let existing = try Source.filter(Source.Columns.location == new.location.absoluteString).fetchOne(db) {
      source = existing
      if let format = new.format, format != existing.format, new.catalogID == nil {
        source.format = format
        try source.update(db)
      }
    } else {
      let key = try uniqueKey(
        new.key ?? NewSource.suggestedKey(for: new.location), explicit: new.key != nil,
        reservesCatalogIDs: new.catalogID == nil, db)
      var fresh = Source(
        id: 0, key: key, name: new.name ?? key, location: new.location.absoluteString, catalogID: new.catalogID,
        format: new.format, category: new.category)
      fresh.mirrors = new.mirrors.isEmpty ? nil : Self.merging([], new.mirrors.map(\.absoluteString))
      source = try insertNew(fresh, db)
      isNew = true
    }
    let member = try Bool.fetchOne(
      db, sql: "SELECT 1 FROM profileSource WHERE profileID = ? AND sourceID = ?", arguments: [profile.id, source.id])
    if member == true {
      throw StoreError.alreadyInProfile(source: source.key, location: source.location, profile: profile.name)
    }
    let position =
      try Int.fetchOne(db, sql: "SELECT MAX(position) FROM profileSource WHERE profileID = ?", arguments: [profile.id])
      ?? 0
    try db.execute(
      sql: "INSERT INTO profileSource (profileID, sourceID, enabled, position) VALUES (?, ?, 1, ?)",
      arguments: [profile.id, source.id, position + 1])
    return (source, isNew)
  }

  /// `key`, or with `-2`, `-3`… when a source has it; a derived key of a list that is not a catalog entry
  /// also keeps off the catalog's ids (a local `anudeep-coinminer.txt` must not take the name
  /// `sources add anudeep-coinminer` would then need).
  private static func uniqueKey(_ key: String, explicit: Bool, reservesCatalogIDs: Bool, _ db: Database) throws
    -> String
  {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
    guard !key.isEmpty, key.count <= 64, key.unicodeScalars.allSatisfy(allowed.contains) else {
      throw StoreError.invalid(value: key, reason: "is not a usable source name: use letters, digits, “-”, “_” or “.”")
    }
    func taken(_ candidate: String) throws -> Bool {
      if reservesCatalogIDs && !explicit && Catalog.builtIn.entry(id: candidate) != nil { return true }
      return try Source.filter(Source.Columns.key == candidate).fetchCount(db) > 0
    }
    guard try taken(key) else { return key }
    if explicit { throw StoreError.alreadyExists(kind: "source", name: key) }
    var number = 2
    while try taken("\(key)-\(number)") { number += 1 }
    return "\(key)-\(number)"
  }

  /// Finds a source of a profile by key, number or location.
  static func member(_ reference: String, of profile: Profile, _ db: Database) throws -> Source {
    let sources = try Self.sources(of: profile, db).map(\.source)
    let match =
      sources.first { $0.key == reference } ?? sources.first { $0.key.lowercased() == reference.lowercased() }
      ?? sources.first { String($0.id) == reference } ?? sources.first { $0.location == reference }
      ?? sources.first { $0.location == URL(fileURLWithPath: reference).absoluteString }
    guard let match else {
      throw StoreError.notFound(
        kind: "source in profile “\(profile.name)”", name: reference, known: sources.map(\.key))
    }
    return match
  }

  /// Takes a source out of a profile. A source no profile uses any more is deleted with its copy.
  @discardableResult
  public func removeSource(_ reference: String, from profile: String? = nil) throws(StoreError) -> Source {
    let (source, files): (Source, [String]) = try write { db in
      let profile = try Self.profile(profile, db)
      let source = try Self.member(reference, of: profile, db)
      try db.execute(
        sql: "DELETE FROM profileSource WHERE profileID = ? AND sourceID = ?", arguments: [profile.id, source.id])
      return (source, try Self.deleteOrphanSources(db))
    }
    removeFiles(files)
    return source
  }

  /// Deletes sources that no profile uses; returns their copies (good, previous and held) for removal
  /// after the commit.
  static func deleteOrphanSources(_ db: Database) throws -> [String] {
    let orphans = try Source.filter(sql: "id NOT IN (SELECT sourceID FROM profileSource)").fetchAll(db)
    for source in orphans { _ = try source.delete(db) }
    return orphans.flatMap { [$0.cacheFile, $0.previousCacheFile, $0.heldCopy?.cacheFile] }.compactMap { $0 }
      .flatMap { [$0, listFile(forCopy: $0)] }
  }

  /// Turns a source on or off in a profile without removing it.
  @discardableResult
  public func setEnabled(_ enabled: Bool, source reference: String, in profile: String? = nil) throws(StoreError)
    -> Source
  {
    try write { db in
      let profile = try Self.profile(profile, db)
      let source = try Self.member(reference, of: profile, db)
      try db.execute(
        sql: "UPDATE profileSource SET enabled = ? WHERE profileID = ? AND sourceID = ?",
        arguments: [enabled, profile.id, source.id])
      return source
    }
  }
}
