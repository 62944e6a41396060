import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Opening the store")
struct StoreTests {
  @Test("A fresh store has one profile, default, active and empty")
  func fresh() async throws {
    try await withStore { store, temp throws in
      let profiles = try store.profiles()
      #expect(profiles.map(\.name) == ["default"])
      #expect(profiles.first?.isActive == true)
      #expect(try store.activeProfile().name == "default")
      #expect(try store.sources().isEmpty)
      #expect(try store.allSources().isEmpty)
      #expect(try store.rules().isEmpty)
      #expect(try store.runs().isEmpty)
      #expect(temp.contents().contains("sanehosts.sqlite"))
      #expect(Set(temp.contents()).isSuperset(of: ["lists", "profiles", "staging"]))
    }
  }

  @Test("Reopening keeps profiles, sources, rules and the active profile")
  func reopen() async throws {
    try await TemporaryDirectory.with { temp throws in
      let directory = DataDirectory(url: temp.url)
      do {
        let store = try Store.open(directory)
        try store.createProfile("work", sources: [web("ads")], activate: true)
        try store.addRule("ads.example.com", action: .deny)
        try store.addRule("=ok.example.com", action: .allow)
      }
      let store = try Store.open(directory)
      #expect(try store.profiles().map(\.name) == ["default", "work"])
      #expect(try store.activeProfile().name == "work")
      #expect(try store.sources().map(\.source.location) == ["https://lists.website/ads.txt"])
      #expect(try store.rules().map(\.text) == ["=ok.example.com", "ads.example.com"])
      #expect(try store.sources(in: "default").isEmpty)
    }
  }

  @Test("Every migration is recorded by name, in order")
  func migrationsRecorded() async throws {
    try await withStore { store, _ throws in
      let recorded = try store.database.read { db in
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
      }
      #expect(
        recorded == [
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
      #expect(recorded == Store.migrator.migrations)
    }
  }

  @Test("A database with a migration this version does not know is refused as newer, and left as it is")
  func newerSchema() async throws {
    try await TemporaryDirectory.with { temp throws in
      let directory = DataDirectory(url: temp.url)
      do {
        let store = try Store.open(directory)
        try store.addSource(web("kept"))
        try store.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", ["v9: from the future"])
      }
      #expect(throws: StoreError.newerSchema(path: directory.database.path, migration: "v9: from the future")) {
        try Store.open(directory)
      }
      // Opening again after removing the unknown migration finds the data untouched.
      let queue = try DatabaseQueue(path: directory.database.path)
      try queue.write { db in
        try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v9: from the future'")
      }
      try queue.close()
      let store = try Store.open(directory)
      #expect(try store.allSources().map(\.key) == ["lists-website-kept"])
    }
  }

  @Test("A data directory that cannot be created fails with cannotOpen, naming the path")
  func cannotCreate() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let file = temp.file("plain-file")
    try Data("not a directory".utf8).write(to: file)
    let directory = DataDirectory(url: file.appendingPathComponent("data"))
    let error = #expect(throws: StoreError.self) { try Store.open(directory) }
    guard case .cannotOpen(let path, _) = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(path.hasPrefix(file.path))
    #expect(error?.errorDescription?.contains(file.path) == true)
    #expect(error?.recoverySuggestion?.contains("--data-dir") == true)
  }

  @Test("A read-only data directory is refused with a clear error")
  func readOnly() throws {
    let temp = try TemporaryDirectory()
    let directory = DataDirectory(url: temp.file("data"))
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.url.path)
      temp.remove()
    }
    try directory.create()
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.url.path)
    // Root writes through permission bits (tests often run as root in containers): nothing would fail.
    // `cannotCreate` forces the failure for every user.
    guard !ignoresPermissions else { return }
    let error = #expect(throws: StoreError.self) { try Store.open(directory) }
    #expect(error == .readOnly(path: directory.url.path))
    #expect(error?.errorDescription?.contains("not writable") == true)
  }

  @Test("A database file that is not SQLite fails with cannotOpen, naming the database")
  func notADatabase() throws {
    let temp = try TemporaryDirectory()
    defer { temp.remove() }
    let directory = DataDirectory(url: temp.url)
    try directory.create()
    try Data(String(repeating: "this is not an SQLite database\n", count: 200).utf8).write(to: directory.database)
    let error = #expect(throws: StoreError.self) { try Store.open(directory) }
    guard case .cannotOpen(let path, let detail) = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(path == directory.database.path)
    #expect(detail.localizedCaseInsensitiveContains("not a database"), "\(detail)")
  }

  @Test("Two stores on the same directory see each other's committed changes")
  func sharedDirectory() async throws {
    try await withStore { first, temp throws in
      let second = try Store.open(DataDirectory(url: temp.url))
      try first.createProfile("shared")
      #expect(try second.profiles().map(\.name) == ["default", "shared"])
      try second.useProfile("shared")
      #expect(try first.activeProfile().name == "shared")
    }
  }

  @Test("A failing statement becomes StoreError.database with SQLite's message, and changes nothing")
  func databaseError() async throws {
    try await withStore { store, _ throws in
      let error = #expect(throws: StoreError.self) {
        try store.write { db in
          try db.execute(sql: "INSERT INTO profile (name, isActive, createdAt) VALUES ('half', 0, 0)")
          try db.execute(sql: "INSERT INTO nowhere VALUES (1)")
        }
      }
      guard case .database(let detail) = error else {
        Issue.record("expected database, got \(String(describing: error))")
        return
      }
      #expect(detail.contains("no such table"), "\(detail)")
      #expect(try store.profiles().map(\.name) == ["default"], "the transaction must roll back")
    }
  }

  @Test("A cancelled task's async write throws CancellationError and saves nothing")
  func cancelledWrite() async throws {
    try await withStore { store, _ throws in
      let task = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        try await store.write { db in
          try db.execute(sql: "INSERT INTO profile (name, isActive, createdAt) VALUES ('late', 0, 0)")
        }
      }
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(try store.profiles().map(\.name) == ["default"])
    }
  }
}
