import Blocklists
import Foundation
import GRDB

/// How an allow or deny rule matches (the engine's kinds).
public typealias RuleKind = RuleSet.Kind

/// The SaneHosts database: sources and the names they hold, profiles, rules and update runs.
///
/// One SQLite file in WAL mode, so readers never wait for the update that writes. Every change is a
/// transaction: a command either changes what it says or nothing.
public struct Store: Sendable {
  /// The data directory.
  public let directory: DataDirectory
  let database: DatabasePool

  /// Opens (creating if needed) the store in a data directory and brings its schema up to date.
  public static func open(_ directory: DataDirectory) throws(StoreError) -> Store {
    try directory.create()
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    configuration.busyMode = .timeout(10)
    configuration.label = "sanehosts"
    let database: DatabasePool
    do {
      database = try DatabasePool(path: directory.database.path, configuration: configuration)
    } catch {
      throw directory.isFull
        ? .diskFull(path: directory.url.path, available: directory.availableBytes ?? 0)
        : .cannotOpen(path: directory.database.path, detail: Self.describe(error))
    }
    let migrator = Self.migrator
    do {
      if let unknown = try database.read({ try migrator.appliedIdentifiers($0) })
        .subtracting(migrator.migrations).first
      {
        throw StoreError.newerSchema(path: directory.database.path, migration: unknown)
      }
      try migrator.migrate(database)
    } catch let error as StoreError {
      throw error
    } catch {
      throw directory.isFull
        ? .diskFull(path: directory.url.path, available: directory.availableBytes ?? 0)
        : .cannotOpen(path: directory.database.path, detail: Self.describe(error))
    }
    return Store(directory: directory, database: database)
  }

  /// A database error as a `StoreError`: a full disk is named as such, the rest keep SQLite's words.
  func failure(_ error: any Error) -> StoreError {
    let full = (error as? DatabaseError)?.resultCode == .SQLITE_FULL || directory.isFull
    return full
      ? .diskFull(path: directory.url.path, available: directory.availableBytes ?? 0)
      : .database(detail: Self.describe(error))
  }

  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      return [error.message, error.resultCode == .SQLITE_READONLY ? "read-only" : nil]
        .compactMap { $0 }.joined(separator: ", ")
    }
    return DataDirectory.describe(error)
  }

  /// Runs a read, turning database errors into `StoreError`.
  func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try database.read(body)
    } catch let error as StoreError {
      throw error
    } catch {
      throw failure(error)
    }
  }

  /// Runs a write transaction, turning database errors into `StoreError`; it counts up the generation.
  func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try database.write { db in
        let result = try body(db)
        try Self.countGeneration(db)
        return result
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw failure(error)
    }
  }

  /// Runs a write transaction from async code; a cancelled task rolls it back. It counts up the
  /// generation.
  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await database.write { db in
        let result = try body(db)
        try Self.countGeneration(db)
        return result
      }
    } catch let error as StoreError {
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
      throw CancellationError()
    } catch {
      throw failure(error)
    }
  }
}
