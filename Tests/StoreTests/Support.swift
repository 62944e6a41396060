import Blocklists
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// Opens a store in a new temporary data directory, runs `body`, and removes the directory.
func withStore<R>(_ body: (Store, TemporaryDirectory) async throws -> R) async throws -> R {
  try await TemporaryDirectory.with { temp throws in
    let store = try Store.open(DataDirectory(url: temp.url))
    return try await body(store, temp)
  }
}

/// A web source at a made-up address (never fetched).
func web(_ name: String, key: String? = nil, format: InputFormat? = nil) -> NewSource {
  NewSource(location: URL(string: "https://lists.website/\(name).txt")!, key: key, format: format)
}

/// Whether the process can write anywhere regardless of permissions (root), so chmod proves nothing.
var ignoresPermissions: Bool { geteuid() == 0 }

extension Store {
  /// Runs raw SQL on the store's database, bypassing its API.
  func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
    try database.write { db in try db.execute(sql: sql, arguments: arguments) }
  }

  /// Fetches one integer with raw SQL.
  func integer(_ sql: String, _ arguments: StatementArguments = []) throws -> Int? {
    try database.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) }
  }

  /// The source with this key, straight from the database.
  func source(key: String) throws -> Source? {
    try database.read { db in try Source.filter(Column("key") == key).fetchOne(db) }
  }

  /// Writes a cache file for `key` (a hosts list), and returns the copy an update would save.
  func copy(
    _ names: [String], key: String, sha: String = UUID().uuidString, format: InputFormat? = .hosts,
    etag: String? = nil, lastModified: String? = nil
  ) throws -> SourceUpdate.Copy {
    let cacheFile = "lists/\(key)-\(sha.prefix(8)).list"
    let line: (String) -> String =
      switch format {
      case .adblock: { "||\($0)^\n" }
      case .wildcard: { "*.\($0)\n" }
      case .domains: { "\($0)\n" }
      default: { "0.0.0.0 \($0)\n" }
      }
    try Data(names.map(line).joined().utf8).write(to: directory.file(cacheFile))
    var findings = Findings()
    findings.lines = names.count
    findings.names = names.count
    return SourceUpdate.Copy(
      etag: etag, lastModified: lastModified, sha256: sha, cacheFile: cacheFile,
      bytes: Int64(names.joined().utf8.count), accepted: names.count, unique: Set(names).count,
      duplicates: names.count - Set(names).count, rejected: 0, detectedFormat: format, findings: findings)
  }

  /// Saves a new copy of a source as an update run would, and returns the source as saved.
  @discardableResult
  func save(_ names: [String], for source: Source, format: InputFormat? = .hosts, at date: Date = Date()) async throws
    -> Source
  {
    let copy = try copy(names, key: source.key, format: source.format ?? format)
    let profile = try activeProfile()
    let run = UpdateRun(
      profileID: profile.id, profileName: profile.name, startedAt: date, finishedAt: date, forced: false,
      results: [.init(key: source.key, status: .updated, names: names.count)], names: names.count)
    _ = try await commit(
      [SourceUpdate(sourceID: source.id, attemptedAt: date, change: .updated(copy))], run: run, compiled: nil)
    return try #require(try self.source(key: source.key))
  }
}

/// Whether a file exists at a path relative to a store's data directory.
func exists(_ relativePath: String, in store: Store) -> Bool {
  FileManager.default.fileExists(atPath: store.directory.file(relativePath).path)
}
