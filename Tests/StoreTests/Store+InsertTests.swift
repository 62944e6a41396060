import Blocklists
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("New rows get their id from the database")
struct StoreInsertTests {
  @Test("Sources, profiles and rules come back with the id of the row they are, whatever id they were made with")
  func ids() async throws {
    try await withStore { store, _ throws in
      let (a, _) = try store.addSource(web("a"))
      let (b, _) = try store.addSource(web("b"))
      #expect(a.id != b.id && a.id > 0 && b.id > 0)
      #expect(try store.source(key: a.key) == a)
      let kids = try store.createProfile("kids")
      #expect(kids.id != (try store.profile("default")).id)
      #expect(try store.profile("kids") == kids)
      let rule = try store.addRule("keep.website", action: .allow)
      #expect(try store.rules().first == rule)

      // The id a record is made with is not written: two inserts of the same made-up id are two rows.
      let (first, second) = try store.database.write { db in
        let made = Profile(id: 42, name: "x")
        var other = made
        other.name = "y"
        return (try Store.insertNew(made, db), try Store.insertNew(other, db))
      }
      #expect(first.id != 42 || second.id != 42)
      #expect(first.id != second.id)
      #expect(try store.profile("y").id == second.id)
    }
  }
}
