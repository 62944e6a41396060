import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("The store's generation")
struct StoreGenerationTests {
  @Test("Every write counts it up, through this store or another opened on the same folder; reads do not")
  func countsWrites() async throws {
    try await withStore { store, directory throws in
      func generation() throws -> Int64 { try store.snapshot(ifGenerationIsNot: nil).generation }
      let start = try generation()
      _ = try store.profiles()
      _ = try store.snapshot()
      #expect(try generation() == start, "reads leave it")
      _ = try store.addSource(web("a"))
      let afterAdd = try generation()
      #expect(afterAdd > start)
      _ = try store.addRule("keep.website", action: .allow)
      #expect(try generation() > afterAdd)
      // Another process (the CLI) writing through its own connection.
      let other = try Store.open(store.directory)
      _ = try other.createProfile("kids", sources: [])
      #expect(try generation() > afterAdd + 1)
    }
  }

  @Test("A snapshot comes with its generation, and not again while the generation is the one known")
  func snapshotIfChanged() async throws {
    try await withStore { store, _ throws in
      let first = try store.snapshot(ifGenerationIsNot: nil)
      #expect(first.snapshot?.sources.isEmpty == true)
      let same = try store.snapshot(ifGenerationIsNot: first.generation)
      #expect(same.generation == first.generation && same.snapshot == nil)
      _ = try store.addSource(web("a"))
      let changed = try store.snapshot(ifGenerationIsNot: first.generation)
      #expect(changed.generation > first.generation)
      #expect(changed.snapshot?.sources.count == 1)
    }
  }
}
