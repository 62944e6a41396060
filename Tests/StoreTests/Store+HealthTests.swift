import Blocklists
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("List health in the store: previous and held copies, accept, diff")
struct StoreHealthTests {
  func commit(_ store: Store, _ source: Source, _ change: SourceUpdate.Change) async throws -> [String] {
    let profile = try store.activeProfile()
    let run = UpdateRun(
      profileID: profile.id, profileName: profile.name, startedAt: Date(), finishedAt: Date(), forced: false,
      results: [.init(key: source.key, status: .updated, names: 0)], names: 0)
    return try await store.commit(
      [SourceUpdate(sourceID: source.id, attemptedAt: Date(), change: change)], run: run, compiled: nil)
  }

  @Test("A new copy keeps the current one as the previous copy; the one before goes, with its block set file")
  func previousCopy() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let first = try await store.save(["a.website", "b.website"], for: source)
      #expect(first.previousCacheFile == nil)
      let second = try store.copy(["a.website", "c.website", "d.website"], key: source.key)
      #expect(try await commit(store, first, .updated(second)).isEmpty)
      let saved = try #require(try store.source(key: source.key))
      #expect(saved.previousCacheFile == first.cacheFile)
      #expect(saved.previousSha256 == first.sha256)
      #expect(saved.previousUnique == first.unique)
      #expect(saved.trend.change == (saved.unique ?? 0) - (first.unique ?? 0))
      #expect(try store.referencedFiles().contains(first.cacheFile!))

      let third = try store.copy(["e.website"], key: source.key)
      let replaced = try await commit(store, saved, .updated(third))
      #expect(replaced == [first.cacheFile!, Store.listFile(forCopy: first.cacheFile!)])
      #expect(try store.source(key: source.key)?.previousCacheFile == second.cacheFile)
    }
  }

  @Test("A held copy is kept beside the good one, replaced by a newer held one, dropped by a good or unchanged copy")
  func heldCopy() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let good = try await store.save((0..<10).map { "n\($0).website" }, for: source)
      let held = try store.copy(["n1.website"], key: source.key)
      #expect(try await commit(store, good, .held(held, message: "suspicious shrink")).isEmpty)
      var saved = try #require(try store.source(key: source.key))
      #expect(saved.heldCopy == held)
      #expect(saved.cacheFile == good.cacheFile)
      #expect(saved.status == .failed)
      #expect(saved.message == "suspicious shrink")
      #expect(try store.referencedFiles().contains(held.cacheFile))

      let newer = try store.copy(["n2.website"], key: source.key)
      #expect(
        try await commit(store, saved, .held(newer, message: "again"))
          == [held.cacheFile, Store.listFile(forCopy: held.cacheFile)])
      saved = try #require(try store.source(key: source.key))
      #expect(
        try await commit(store, saved, .unchanged(etag: nil, lastModified: nil))
          == [newer.cacheFile, Store.listFile(forCopy: newer.cacheFile)])
      #expect(try store.source(key: source.key)?.heldCopy == nil)
    }
  }

  @Test("Accepting a held copy makes it the good copy, counted; without one it says there is nothing to accept")
  func accept() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let good = try await store.save((0..<10).map { "n\($0).website" }, for: source)
      await #expect(throws: StoreError.self) { try await store.acceptHeldCopy(source.key) }
      let held = try store.copy(["n1.website", "x.website", "x.website"], key: source.key)
      _ = try await commit(store, good, .held(held, message: "shrink"))

      let before = try #require(try await store.difference(of: source.key, held: true))
      #expect(before.addedCount == 1 && before.added == ["x.website"])
      #expect(before.removedCount == 9)

      let accepted = try await store.acceptHeldCopy(source.key)
      #expect(accepted.cacheFile == held.cacheFile)
      #expect(accepted.heldCopy == nil)
      #expect(accepted.previousCacheFile == good.cacheFile)
      #expect(accepted.unique == 2)
      #expect(accepted.duplicates == 1)
      #expect(accepted.status == .updated)
      let after = try #require(try await store.difference(of: source.key, limit: 3))
      #expect(after.removedCount == 9 && after.removed.count == 3)
      #expect(after.removed == ["n0.website", "n2.website", "n3.website"])
      #expect(try await store.difference(of: source.key, held: true) == nil)
    }
  }

  @Test("A source with one copy has nothing to compare")
  func oneCopy() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      #expect(try await store.difference(of: source.key) == nil)
      _ = try await store.save(["a.website"], for: source)
      #expect(try await store.difference(of: source.key) == nil)
    }
  }

  @Test("A held copy that is also the previous copy is never deleted while the previous copy refers to it")
  func heldIsPrevious() async throws {
    try await withStore { store, _ throws in
      let source = try store.addSource(web("ads")).source
      let previous = try await store.save((0..<9).map { "p\($0).website" }, for: source)
      let current = try store.copy((0..<20).map { "n\($0).website" }, key: source.key)
      _ = try await commit(store, previous, .updated(current))
      // The server serves the previous content again: held back, the same file as the previous copy.
      var saved = try #require(try store.source(key: source.key))
      let again = SourceUpdate.Copy(
        etag: nil, lastModified: nil, sha256: previous.sha256!, cacheFile: previous.cacheFile!, bytes: 1, accepted: 9,
        unique: 0, duplicates: 0, rejected: 0, detectedFormat: .hosts, findings: Findings())
      #expect(try await commit(store, saved, .held(again, message: "shrink")).isEmpty)
      // A forced update then brings the current content again.
      saved = try #require(try store.source(key: source.key))
      let lastChange = saved.lastChange
      #expect(try await commit(store, saved, .updated(current)).isEmpty)
      saved = try #require(try store.source(key: source.key))
      #expect(saved.previousCacheFile == previous.cacheFile)
      #expect(saved.heldCopy == nil)
      #expect(saved.lastChange == lastChange, "the same content again is no change")
    }
  }
}
