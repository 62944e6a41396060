import GRDB

extension Store {
  /// The number every write transaction counts up, in whatever process: what was read at one
  /// generation is still true while the generation is the same (`snapshot(ifGenerationIsNot:)` reads it
  /// with the snapshot, so the dashboard reads a profile again only when it changed).
  static func generation(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM generation")) ?? 0
  }

  static func countGeneration(_ db: Database) throws {
    try db.cachedStatement(sql: "UPDATE generation SET value = value + 1").execute()
  }
}
