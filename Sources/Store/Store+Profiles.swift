import Foundation
import GRDB

extension Store {
  /// Every profile, by name.
  public func profiles() throws(StoreError) -> [Profile] {
    try read { try Profile.order(Profile.Columns.name.collating(.nocase)).fetchAll($0) }
  }

  /// The active profile.
  public func activeProfile() throws(StoreError) -> Profile {
    try read { db in try Self.activeProfile(db) }
  }

  /// The named profile, or the active one when `name` is nil.
  public func profile(_ name: String?) throws(StoreError) -> Profile {
    try read { db in try Self.profile(name, db) }
  }

  static func activeProfile(_ db: Database) throws -> Profile {
    if let profile = try Profile.filter(Profile.Columns.isActive == true).fetchOne(db) { return profile }
    // A store always has an active profile; repair one that lost it.
    guard var first = try Profile.order(Profile.Columns.id).fetchOne(db) else {
      throw StoreError.notFound(kind: "profile", name: "(active)", known: [])
    }
    first.isActive = true
    // Readers cannot write: they use the repaired profile, and the next write that looks it up saves it.
    if !db.configuration.readonly { try first.update(db) }
    return first
  }

  static func profile(_ name: String?, _ db: Database) throws -> Profile {
    guard let name else { return try activeProfile(db) }
    if let profile = try Profile.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchOne(db) {
      return profile
    }
    let known = try String.fetchAll(db, sql: "SELECT name FROM profile ORDER BY name COLLATE NOCASE")
    throw StoreError.notFound(kind: "profile", name: name, known: known)
  }

  /// Creates a profile holding the given sources (added to the store if new) and, optionally, makes it active.
  @discardableResult
  public func createProfile(
    _ name: String, summary: String? = nil, preset: String? = nil, sources: [NewSource] = [], activate: Bool = false
  ) throws(StoreError) -> Profile {
    try Profile.validate(name: name)
    return try write { db in
      if try Profile.filter(sql: "name = ? COLLATE NOCASE", arguments: [name]).fetchCount(db) > 0 {
        throw StoreError.alreadyExists(kind: "profile", name: name)
      }
      var profile = try Self.insertNew(Profile(id: 0, name: name, summary: summary, preset: preset), db)
      for source in sources { _ = try Self.add(source, to: profile, db) }
      if activate { try Self.activate(&profile, db) }
      return profile
    }
  }

  /// Makes a profile the active one.
  @discardableResult
  public func useProfile(_ name: String) throws(StoreError) -> Profile {
    try write { db in
      var profile = try Self.profile(name, db)
      try Self.activate(&profile, db)
      return profile
    }
  }

  static func activate(_ profile: inout Profile, _ db: Database) throws {
    try db.execute(sql: "UPDATE profile SET isActive = 0 WHERE isActive")
    profile.isActive = true
    try profile.update(db)
  }

  /// Copies a profile (its sources, their enabled state, and its rules) under a new name.
  @discardableResult
  public func duplicateProfile(_ name: String, as newName: String) throws(StoreError) -> Profile {
    try Profile.validate(name: newName)
    return try write { db in
      let original = try Self.profile(name, db)
      if try Profile.filter(sql: "name = ? COLLATE NOCASE", arguments: [newName]).fetchCount(db) > 0 {
        throw StoreError.alreadyExists(kind: "profile", name: newName)
      }
      let copy = try Self.insertNew(
        Profile(id: 0, name: newName, summary: original.summary, preset: original.preset), db)
      try Self.merge(from: original, into: copy, db)
      return copy
    }
  }

  /// Adds another profile's sources and rules to a profile (what it has already stays as it is).
  /// Returns the number of sources and rules added.
  @discardableResult
  public func mergeProfile(_ name: String, into target: String) throws(StoreError) -> (sources: Int, rules: Int) {
    try write { db in
      let from = try Self.profile(name, db)
      let into = try Self.profile(target, db)
      guard from.id != into.id else {
        throw StoreError.invalid(value: name, reason: "cannot be merged into itself")
      }
      return try Self.merge(from: from, into: into, db)
    }
  }

  @discardableResult
  static func merge(from: Profile, into: Profile, _ db: Database) throws -> (sources: Int, rules: Int) {
    let position =
      try Int.fetchOne(db, sql: "SELECT MAX(position) FROM profileSource WHERE profileID = ?", arguments: [into.id])
      ?? 0
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO profileSource (profileID, sourceID, enabled, position)
        SELECT ?, sourceID, enabled, ? + position FROM profileSource WHERE profileID = ? ORDER BY position
        """, arguments: [into.id, position, from.id])
    let sources = db.changesCount
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO rule (profileID, action, kind, pattern, comment, addedAt)
        SELECT ?, action, kind, pattern, comment, addedAt FROM rule WHERE profileID = ? ORDER BY id
        """, arguments: [into.id, from.id])
    return (sources, db.changesCount)
  }

  /// Deletes a profile that is not active. Sources no other profile uses are deleted with their copies.
  public func deleteProfile(_ name: String) throws(StoreError) {
    let orphans: [String] = try write { db in
      let profile = try Self.profile(name, db)
      if profile.isActive { throw StoreError.deletingActiveProfile(name: profile.name) }
      let compiled = try String.fetchAll(
        db, sql: "SELECT file FROM compiledProfile WHERE profileID = ?", arguments: [profile.id])
      _ = try profile.delete(db)
      return try Self.deleteOrphanSources(db) + compiled
    }
    removeFiles(orphans)
  }

  /// Removes files of the data directory, ignoring those already gone.
  public func removeFiles(_ relativePaths: [String]) {
    for path in relativePaths { try? FileManager.default.removeItem(at: directory.file(path)) }
  }
}
