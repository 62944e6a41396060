import Blocklists
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Rows are data: stored rules and files checked where they are loaded")
struct StoreFilesTests {
  /// Writes a rule row as another program could, past `addRules`.
  static func insertRule(_ store: Store, action: String, kind: String, pattern: String) throws {
    let profile = try store.activeProfile()
    try store.write { db in
      try db.execute(
        sql: "INSERT INTO rule (profileID, action, kind, pattern, addedAt) VALUES (?, ?, ?, ?, 0)",
        arguments: [profile.id, action, kind, pattern])
    }
  }

  @Test(
    "A rule row the parser would never write is refused when loaded, naming it and how to remove it",
    arguments: [
      ("deny", "exact", "x.example.com.\" always_null\nlocal-data: \"www.bank.example. A 203.0.113.7"),
      ("deny", "regex", "evil\\.example"),
      ("allow", "exact", "a.example/#\nserver=/bank.example/203.0.113.7"),
      ("deny", "subdomains", "Upper.Example"),
      ("deny", "wildcard", "a b.example"),
    ])
  func hostileRule(action: String, kind: String, pattern: String) async throws {
    try await withStore { store, _ throws in
      try store.addRule("good.example", action: .deny)
      try Self.insertRule(store, action: action, kind: kind, pattern: pattern)
      let error = #expect(throws: StoreError.self) { try store.ruleSet(for: try store.activeProfile()) }
      #expect(error?.localizedDescription.contains("nothing was applied") == true)
      #expect(error?.localizedDescription.contains("\n") == false, "escaped: \(error?.localizedDescription ?? "")")
      #expect(error?.recoverySuggestion?.contains("sanehosts \(action) remove") == true)
      #expect(throws: StoreError.self) { try store.snapshot().ruleSet }
      // The rows still list, so the rule can be seen and removed by its number.
      let hostile = try #require(try store.rules().first { $0.pattern == pattern })
      try store.removeRule(String(hostile.id), action: hostile.action)
      #expect(try store.ruleSet(for: try store.activeProfile()).deny.map(\.pattern) == ["good.example"])
    }
  }

  @Test("A row's file must be a name inside lists/ or profiles/: a path, .. or another folder is refused")
  func storedFileNames() async throws {
    try await withStore { store, _ throws in
      for bad in [
        "/etc/shadow", "lists/../../etc/shadow", "../lists/x", "lists/a/b", "backups/x", "lists/", "lists/.x",
      ] {
        #expect(throws: StoreError.self, "\(bad)") { try store.storedFile(bad) }
      }
      let file = try store.storedFile("lists/copy-0123.list")
      #expect(file.name == "copy-0123.list")
    }
  }

  @Test(
    "A copy that is a link, a FIFO or a linked lists/ is refused by name, never read, and nothing written beside its target"
  )
  func linkedCopies() async throws {
    try await withStore { store, temp throws in
      let outside = temp.file("outside")
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
      try Data("root:x:0:0::/root:/bin/sh\n".utf8).write(to: outside.appending(path: "shadow"))
      let lists = store.directory.lists
      try FileManager.default.createSymbolicLink(
        atPath: lists.appending(path: "a-1.list").path, withDestinationPath: outside.appending(path: "shadow").path)
      #expect(mkfifo(lists.appending(path: "b-1.list").path, 0o600) == 0)
      let started = ContinuousClock.now
      for copy in ["lists/a-1.list", "lists/b-1.list"] {
        let list = await store.list(copy: copy, sha256: "1", format: nil, name: "x")
        #expect(list == nil, "\(copy)")
        await #expect(throws: StoreError.self) { try await store.storedFile(copy).withPath { _ in 0 } }
      }
      #expect(ContinuousClock.now - started < .seconds(5), "the FIFO was not opened for reading")
      // lists/ itself a link to another folder.
      try FileManager.default.removeItem(at: lists)
      try FileManager.default.createSymbolicLink(atPath: lists.path, withDestinationPath: outside.path)
      #expect(throws: StoreError.self) { try store.storedFile("lists/shadow") }
      #expect(await store.list(copy: "lists/shadow", sha256: "1", format: nil, name: "x") == nil)
      #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["shadow"], "no .blockset there")
    }
  }
}
