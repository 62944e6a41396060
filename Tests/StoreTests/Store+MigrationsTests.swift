import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Schema migrations")
struct StoreMigrationsTests {
  @Test("The migrator registers the shipped migrations, in order")
  func registered() {
    #expect(
      Store.migrator.migrations == [
        "v1: sources, names, profiles, rules, update runs", "v1: the default profile",
        "v2: blocker test runs and custom test domains",
        "v3: names live in each copy's block set file, not in SQLite",
        "v4: list health: the previous copy, a held-back copy, the list's own date",
        "v5: mirrors, and where the current copy came from",
        "v6: a generation counted up by every write",
        "v7: a profile's fleet of replicas",
        "v8: where a replica transfers from, its memory, what was last verified on it, the fleet's changes",
        "v9: allow rules that end",
      ])
  }

  @Test("Migrating an empty database creates every table and the default profile")
  func schema() throws {
    let queue = try DatabaseQueue()
    try Store.migrator.migrate(queue)
    try queue.read { db in
      for table in ["source", "profile", "profileSource", "rule", "updateRun", "compiledProfile"] {
        #expect(try db.tableExists(table), "\(table)")
      }
      #expect(try !db.tableExists("sourceName"), "names live in block set files since v3")
      #expect(try db.indexes(on: "profile").contains { $0.name == "profile_one_active" && $0.isUnique })
      let profiles = try Row.fetchAll(db, sql: "SELECT name, isActive FROM profile")
      #expect(profiles.count == 1)
      let name: String? = profiles.first?["name"]
      let isActive: Bool? = profiles.first?["isActive"]
      #expect(name == "default")
      #expect(isActive == true)
      #expect(try Store.migrator.hasCompletedMigrations(db))
    }
  }

  @Test("Migrating twice changes nothing")
  func idempotent() throws {
    let queue = try DatabaseQueue()
    try Store.migrator.migrate(queue)
    try Store.migrator.migrate(queue)
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM profile") } == 1)
  }

  @Test("At most one profile can be active")
  func oneActive() async throws {
    try await withStore { store, _ throws in
      #expect(throws: (any Error).self) {
        try store.execute("INSERT INTO profile (name, isActive, createdAt) VALUES ('second', 1, 0)")
      }
      try store.execute("INSERT INTO profile (name, isActive, createdAt) VALUES ('second', 0, 0)")
      #expect(try store.integer("SELECT COUNT(*) FROM profile WHERE isActive") == 1)
    }
  }

  @Test("Profile names are unique ignoring case")
  func profileNamesNoCase() async throws {
    try await withStore { store, _ throws in
      #expect(throws: (any Error).self) {
        try store.execute("INSERT INTO profile (name, isActive, createdAt) VALUES ('DEFAULT', 0, 0)")
      }
      #expect(try store.profiles().map(\.name) == ["default"])
    }
  }

  @Test("Rules accept only the known actions and kinds")
  func ruleChecks() async throws {
    try await withStore { store, _ throws in
      let id = try #require(try store.activeProfile().id)
      let insert = "INSERT INTO rule (profileID, action, kind, pattern, addedAt) VALUES (?, ?, ?, 'a.website', 0)"
      #expect(throws: (any Error).self) { try store.execute(insert, [id, "block", "exact"]) }
      #expect(throws: (any Error).self) { try store.execute(insert, [id, "deny", "prefix"]) }
      try store.execute(insert, [id, "deny", "exact"])
      #expect(throws: (any Error).self) { try store.execute(insert, [id, "deny", "exact"]) }
    }
  }

  @Test("Foreign keys are enforced and deleting a source cascades to its memberships")
  func foreignKeys() async throws {
    try await withStore { store, _ throws in
      #expect(throws: (any Error).self) {
        try store.execute("INSERT INTO profileSource (profileID, sourceID, position) VALUES (1, 999, 0)")
      }
      let source = try store.addSource(web("cascade")).source
      try await store.save(["a.website", "b.website"], for: source)
      try store.execute("DELETE FROM source WHERE id = ?", [source.id])
      #expect(try store.integer("SELECT COUNT(*) FROM profileSource") == 0)
    }
  }

  @Test("Deleting a profile keeps its runs, unlinked")
  func runsOutliveProfiles() async throws {
    try await withStore { store, _ throws in
      let profile = try store.createProfile("gone")
      let run = UpdateRun(
        profileID: profile.id, profileName: "gone", startedAt: Date(), finishedAt: Date(), forced: false,
        results: [], names: 0)
      _ = try await store.commit([], run: run, compiled: nil)
      try store.deleteProfile("gone")
      let runs = try store.runs()
      #expect(runs.count == 1)
      #expect(runs.first?.profileID == nil)
      #expect(runs.first?.profileName == "gone")
    }
  }
}
