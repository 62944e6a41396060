import Foundation
import Store
import Testing

@Suite("Store errors")
struct StoreErrorTests {
  /// Each error, a value its message must name, and a phrase of what to do.
  static let cases: [(StoreError, String, String)] = [
    (.cannotOpen(path: "/srv/data", detail: "Permission denied"), "/srv/data", "--data-dir"),
    (.readOnly(path: "/srv/ro"), "/srv/ro", "writable"),
    (.newerSchema(path: "/srv/db.sqlite", migration: "v9: future"), "v9: future", "Upgrade SaneHosts"),
    (.database(detail: "disk I/O error"), "disk I/O error", "free disk space"),
    (.diskFull(path: "/srv/data", available: 4096), "/srv/data", "Free some space"),
    (.notFound(kind: "profile", name: "work", known: ["default", "home"]), "work", "default, home"),
    (.alreadyExists(kind: "profile", name: "home"), "home", "another name"),
    (.deletingActiveProfile(name: "default"), "default", "sanehosts profile use"),
    (.updateRunning(pid: 4242, lockFile: "/srv/data/update.lock"), "4242", "--wait"),
  ]

  @Test("Every message names the value and says what to do", arguments: cases)
  func messages(error: StoreError, value: String, advice: String) throws {
    let description = try #require(error.errorDescription)
    let suggestion = try #require(error.recoverySuggestion)
    #expect(description.contains(value), "\(description)")
    #expect(suggestion.contains(advice), "\(suggestion)")
    #expect(description.hasSuffix("."))
    #expect(error.localizedDescription == description)
  }

  @Test("The new-schema message names the database file too")
  func newerSchemaPath() {
    let error = StoreError.newerSchema(path: "/srv/db.sqlite", migration: "v9")
    #expect(error.errorDescription?.contains("/srv/db.sqlite") == true)
    #expect(error.errorDescription?.contains("newer") == true)
  }

  @Test("cannotOpen shows the path and the system's reason")
  func cannotOpen() {
    let error = StoreError.cannotOpen(path: "/srv/data", detail: "Permission denied")
    #expect(error.errorDescription == "Cannot open the data directory /srv/data: Permission denied.")
  }

  @Test("invalid puts the reason after the value; the reason itself is the advice")
  func invalid() {
    let error = StoreError.invalid(value: "bad name", reason: "is not a usable profile name")
    #expect(error.errorDescription == "“bad name” is not a usable profile name.")
    #expect(error.recoverySuggestion == nil)
  }

  @Test("notFound lists at most twelve known names, and says when there are none")
  func notFoundKnown() throws {
    let many = (1...15).map { "p\($0)" }
    let long = try #require(StoreError.notFound(kind: "profile", name: "x", known: many).recoverySuggestion)
    #expect(long.contains("p12"))
    #expect(!long.contains("p13"))
    #expect(long.hasSuffix(", ….") || long.hasSuffix(", …"), "\(long)")
    let none = try #require(StoreError.notFound(kind: "source", name: "x", known: []).recoverySuggestion)
    #expect(none == "Nothing of that kind exists yet.")
  }

  @Test("updateRunning names the lock file in its advice, and leaves out an unknown pid")
  func updateRunning() throws {
    let error = StoreError.updateRunning(pid: nil, lockFile: "/srv/data/update.lock")
    #expect(error.errorDescription == "Another update is running.")
    #expect(error.recoverySuggestion?.contains("/srv/data/update.lock") == true)
    #expect(
      StoreError.updateRunning(pid: 7, lockFile: "l").errorDescription == "Another update is running (process 7).")
  }
}
