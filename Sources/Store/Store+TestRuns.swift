import Foundation
import GRDB

extension Store {
  /// Saves a blocker test run; returns it with its id.
  @discardableResult
  public func saveTestRun(_ record: TestRunRecord) throws(StoreError) -> TestRunRecord {
    try write { db in
      var record = record
      try record.insert(db)
      return record
    }
  }

  /// The saved runs, newest first (without their reports' meaning decoded).
  public func testRuns(limit: Int = 50) throws(StoreError) -> [TestRunRecord] {
    try read { db in
      try TestRunRecord.order(TestRunRecord.Columns.startedAt.desc, TestRunRecord.Columns.id.desc).limit(limit)
        .fetchAll(db)
    }
  }

  /// One saved run.
  public func testRun(id: Int64) throws(StoreError) -> TestRunRecord {
    let record = try read { db in try TestRunRecord.fetchOne(db, key: id) }
    guard let record else {
      let known = try read { db in try Int64.fetchAll(db, sql: "SELECT id FROM testRun ORDER BY id DESC LIMIT 12") }
      throw .notFound(kind: "test run", name: String(id), known: known.map(String.init))
    }
    return record
  }

  /// The user's own test domains, in the order added.
  public func customTestDomains() throws(StoreError) -> [CustomTestDomain] {
    try read { db in
      try CustomTestDomain.order(CustomTestDomain.Columns.addedAt, CustomTestDomain.Columns.hostname).fetchAll(db)
    }
  }

  /// Adds (or recategorises) a test domain.
  public func addCustomTestDomain(_ domain: CustomTestDomain) throws(StoreError) {
    try write { db in try domain.save(db) }
  }

  /// Removes a test domain; throws when it is not there.
  public func removeCustomTestDomain(_ hostname: String) throws(StoreError) {
    let removed = try write { db in try CustomTestDomain.deleteOne(db, key: hostname) }
    if !removed {
      let known = try customTestDomains().map(\.hostname)
      throw .notFound(kind: "test domain", name: hostname, known: known)
    }
  }
}
