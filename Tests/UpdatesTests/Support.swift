import Blocklists
import Downloads
import Foundation
import GRDB
import Locking
import TestSupport
import Testing

@testable import Store
@testable import Updates

/// A list for the update tests, by the name of a real one in `../shared/data/blocklists/`: that file when
/// the shared folder is beside the project, else a list generated from the name (the same bytes on every
/// run) in the same format with about as many lines, so that a plain clone runs every test.
func realList(_ name: String) throws -> [UInt8] {
  Array(try Data(contentsOf: try listFile(name)))
}

/// The file behind `realList(name)`.
func listFile(_ name: String) throws -> URL {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let shared = root.deletingLastPathComponent().appending(path: "shared/data/blocklists/\(name)")
  if FileManager.default.fileExists(atPath: shared.path) { return shared }
  // The folder names the generator's version: a cached list of an older generator (names under `.example`,
  // which are now special-use names) is never taken for this one's.
  let generated = FileManager.default.temporaryDirectory.appending(path: "sanehosts-generated-lists-2/\(name)")
  if FileManager.default.fileExists(atPath: generated.path) { return generated }
  try FileManager.default.createDirectory(
    at: generated.deletingLastPathComponent(), withIntermediateDirectories: true)
  let lines = name.contains("stevenblack") ? 140_000 : name.contains("adguard") ? 120_000 : 86_000
  var seed = UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { $0 &* 33 &+ Int($1) })
  var text = "# Generated for the tests in place of \(name) (../shared is not beside the project)\n"
  text.reserveCapacity(lines * 32)
  let hosts = name.contains(".hosts")
  for index in 0..<lines {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let host = "\(String(seed >> 40, radix: 36))-\(index % 97).ads\(index % 13).website"
    text += hosts ? "0.0.0.0 \(host)\n" : "\(host)\n"
  }
  try Data(text.utf8).write(to: generated, options: .atomic)
  return generated
}
/// A store in a fresh temporary directory, and an updater on a real download manager.
struct Harness {
  let directory: TemporaryDirectory
  let store: Store

  init() throws {
    directory = try TemporaryDirectory(prefix: "sanehosts-updates")
    store = try Store.open(DataDirectory(url: directory.file("data")))
  }

  /// A download configuration for tests: short timeouts, one quick retry, temp files in staging.
  func configuration(attempts: Int = 1, maximumBytes: Int64 = 64 << 20) -> DownloadConfiguration {
    DownloadConfiguration(
      connectTimeout: .seconds(10), idleTimeout: .seconds(60), totalTimeout: .seconds(180), maximumBytes: maximumBytes,
      maximumRedirects: 3, retry: RetryPolicy(maximumAttempts: attempts, initialDelay: .milliseconds(10)),
      progressInterval: .milliseconds(10), temporaryDirectory: store.directory.staging)
  }

  /// Runs an update with a real download manager, collecting the events.
  func update(
    profile: String? = nil, options: Updater.Options = Updater.Options(), attempts: Int = 1,
    maximumBytes: Int64 = 64 << 20, cancellation: SourceCancellation = SourceCancellation(),
    events: @escaping @Sendable (UpdateEvent) -> Void = { _ in },
    configure: (inout DownloadConfiguration) -> Void = { _ in }
  ) async throws -> UpdateSummary {
    var configuration = configuration(attempts: attempts, maximumBytes: maximumBytes)
    configure(&configuration)
    return try await DownloadManager.withManager(configuration: configuration) { manager in
      try await Updater(store: store, client: manager).update(
        profile: profile, options: options, cancellation: cancellation, events: events)
    }
  }

  /// Adds a URL source to the active profile.
  @discardableResult
  func add(_ url: URL, key: String, format: InputFormat? = nil) throws -> Source {
    try store.addSource(NewSource(location: url, key: key, format: format)).source
  }

  /// Everything the store holds: every table's rows, and the files of the list cache and compiled profiles.
  func snapshot() throws -> String {
    var text = try store.database.read { db in
      var text = ""
      let tables = try String.fetchAll(
        db,
        sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      for table in tables {
        text += "[\(table)]\n"
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") { text += "\(row)\n" }
      }
      return text
    }
    for folder in [store.directory.lists, store.directory.profiles] {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
      for file in files {
        let size = (try? FileManager.default.attributesOfItem(atPath: folder.appending(path: file).path)[.size]) ?? 0
        text += "file \(folder.lastPathComponent)/\(file) \(size ?? 0)\n"
      }
    }
    return text
  }

  /// Whether the staging folder is empty.
  var stagingIsEmpty: Bool {
    ((try? FileManager.default.contentsOfDirectory(atPath: store.directory.staging.path)) ?? []).isEmpty
  }

  func remove() { directory.remove() }
}

/// Collects events from several tasks.
final class EventLog: Sendable {
  private let events = Locked<[UpdateEvent]>([])

  func append(_ event: UpdateEvent) { events.withLock { $0.append(event) } }

  var all: [UpdateEvent] { events.withLock { $0 } }

  /// The phases reported for a source, by name, without repeats in a row.
  func phases(of key: String) -> [String] {
    all.compactMap { event -> String? in
      guard case .source(let eventKey, let phase) = event, eventKey == key else { return nil }
      return phase.name
    }.reduce(into: []) { result, name in
      if result.last != name { result.append(name) }
    }
  }
}

/// Cancels a task from inside one of its event callbacks.
final class Canceller: Sendable {
  private let task = Locked<Task<UpdateSummary, any Error>?>(nil)
  private let fired = Locked(false)

  func set(_ task: Task<UpdateSummary, any Error>) { self.task.withLock { $0 = task } }

  func cancel() {
    fired.withLock { $0 = true }
    task.withLock { $0 }?.cancel()
  }

  var didFire: Bool { fired.withLock { $0 } }
}

extension SourceOutcome {
  var failure: SourceFailure? {
    if case .failed(let failure) = self { return failure }
    return nil
  }
}

extension UpdateSummary {
  func outcome(_ key: String) -> SourceOutcome? { outcomes.first { $0.key == key }?.outcome }
}
