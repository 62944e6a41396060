import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Store
@testable import Updates

@Suite("List health in updates: suspicious shrinks held back, previous copies kept")
struct UpdaterHealthTests {
  static func hosts(_ range: Range<Int>, header: String = "") -> String {
    header + range.map { "0.0.0.0 n\($0).website\n" }.joined()
  }

  @Test("A copy with under half the names is held back: the good copy stays in use until accepted")
  func shrinkHeldBack() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    let file = harness.directory.file("list.txt")
    try Data(Self.hosts(0..<100, header: "# Version: 2022.0724.122534\n").utf8).write(to: file)
    try harness.add(file, key: "list")
    let first = try await harness.update()
    let goodCopy = try harness.store.source(key: "list")?.cacheFile
    #expect(first.compiled?.names == 100)
    #expect(
      try harness.store.source(key: "list")?.headerDate == ISO8601DateFormatter().date(from: "2022-07-24T12:25:34Z"))

    // 40 names: held back, the profile keeps 100.
    try Data(Self.hosts(30..<70).utf8).write(to: file)
    let held = try await harness.update()
    guard case .failed(let failure) = held.outcomes.first?.outcome else {
      Issue.record("not held: \(held.outcomes)")
      return
    }
    #expect(failure.kind == .suspiciousShrink)
    #expect(failure.message.contains("40 names, the last good one 100 (60.0 % fewer)"))
    #expect(held.compiled?.names == 100)
    var saved = try #require(try harness.store.source(key: "list"))
    #expect(saved.cacheFile == goodCopy)
    let heldCopy = try #require(saved.heldCopy)
    #expect(heldCopy.accepted == 40)
    #expect(FileManager.default.fileExists(atPath: harness.store.directory.file(heldCopy.cacheFile).path))

    // The same shrunken copy again: still held, nothing new on disk.
    let files = try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path).sorted()
    _ = try await harness.update()
    #expect(try FileManager.default.contentsOfDirectory(atPath: harness.store.directory.lists.path).sorted() == files)
    #expect(try harness.store.source(key: "list")?.heldCopy == heldCopy)

    // Accepted by the run: the held copy's content becomes the good copy, the old one the previous.
    let accepted = try await harness.update(options: Updater.Options(acceptShrink: true))
    #expect(accepted.compiled?.names == 40)
    saved = try #require(try harness.store.source(key: "list"))
    #expect(saved.heldCopy == nil)
    #expect(saved.unique == 40 && saved.previousUnique == 100)
    let difference = try #require(try await harness.store.difference(of: "list"))
    #expect(difference.addedCount == 0 && difference.removedCount == 60)
  }

  @Test("A list that comes back to its good copy drops the held one; a smaller drop than half is taken")
  func recovered() async throws {
    let harness = try Harness()
    defer { harness.remove() }
    let file = harness.directory.file("list.txt")
    let full = Self.hosts(0..<100)
    try Data(full.utf8).write(to: file)
    try harness.add(file, key: "list")
    try await harness.update()
    try Data(Self.hosts(0..<10).utf8).write(to: file)
    try await harness.update()
    let heldFile = try #require(try harness.store.source(key: "list")?.heldCopy?.cacheFile)

    try Data(full.utf8).write(to: file)
    let back = try await harness.update()
    #expect(back.outcomes.first?.outcome == .unchanged(.sameContent))
    #expect(try harness.store.source(key: "list")?.heldCopy == nil)
    #expect(!FileManager.default.fileExists(atPath: harness.store.directory.file(heldFile).path))

    try Data(Self.hosts(0..<51).utf8).write(to: file)
    let taken = try await harness.update()
    #expect(taken.compiled?.names == 51)
  }
}

extension Store {
  /// A source by key, as saved.
  fileprivate func source(key: String) throws -> Source? {
    try sources().map(\.source).first { $0.key == key }
  }
}
