import GRDB

extension Store {
  /// A number that every write transaction counts up, in whatever process: what was read at one
  /// generation is still true while the generation is the same.
  ///
  /// The dashboard keeps what its pages show in memory and reads it again only when this changed (the
  /// overview read a profile's whole snapshot, its sources' findings decoded, on every request).
  public func generation() throws(StoreError) -> Int64 {
    try read { db in try Self.generation(db) }
  }

  static func generation(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM generation")) ?? 0
  }

  static func countGeneration(_ db: Database) throws {
    try db.cachedStatement(sql: "UPDATE generation SET value = value + 1").execute()
  }
}
