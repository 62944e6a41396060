import GRDB

extension Store {
  /// Inserts `record` as a new row, the database choosing its id (whatever `record.id` holds is not
  /// written), and returns the row as stored, with that id: a `Source`, `Profile` or `ProfileRule` value
  /// always names a row that exists.
  static func insertNew<Record: FetchableRecord & EncodableRecord & TableRecord>(
    _ record: Record, _ db: Database
  ) throws -> Record {
    try NewRow(record: record).insert(db)
    guard let stored = try Record.fetchOne(db, key: db.lastInsertedRowID) else {
      throw StoreError.notFound(kind: Record.databaseTableName, name: "\(db.lastInsertedRowID)", known: [])
    }
    return stored
  }
}

/// A record written without its id, so that SQLite assigns one (NULL into an INTEGER PRIMARY KEY).
private struct NewRow<Record: EncodableRecord & TableRecord>: PersistableRecord {
  static var databaseTableName: String { Record.databaseTableName }
  let record: Record

  func encode(to container: inout PersistenceContainer) throws {
    try record.encode(to: &container)
    container["id"] = nil
  }
}
