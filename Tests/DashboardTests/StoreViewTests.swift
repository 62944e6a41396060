import Foundation
import HummingbirdTesting
import Store
import TestSupport
import Testing

@testable import Dashboard

@Suite("The store as the pages show it, held in memory")
struct StoreViewTests {
  @Test("Held while nothing writes; a write from another process (the CLI's own store) shows on the next request")
  func readAgainAfterWrite() async throws {
    try await DashboardHarness.with { harness in
      let view = harness.dashboard.storeView
      let first = try view.current()
      #expect(try view.current().generation == first.generation)
      try await harness.routes { client async throws in
        #expect(!(try await client.get("/").text.contains("from-the-cli")))
        let cli = try Store.open(harness.data)
        _ = try cli.addSource(try NewSource.parse("https://lists.website/from-the-cli.txt"))
        #expect(try await client.get("/").text.contains("from-the-cli"))
      }
      let after = try view.current()
      #expect(after.generation > first.generation)
      #expect(after.snapshot.sources.map(\.source.key) == ["lists-website-from-the-cli"])
    }
  }
}
