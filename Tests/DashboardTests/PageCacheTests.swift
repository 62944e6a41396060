import Foundation
import HummingbirdTesting
import Loading
import Locking
import Store
import Testing

@testable import Dashboard

@Suite("The page last rendered")
struct PageCacheTests {
  @Test("Rendered again for another key or in another second, not for the same key in the same second")
  func reuse() {
    let now = Locked(Date(timeIntervalSince1970: 1_000.2))
    let cache = PageCache<Int>(clock: { now.withLock { $0 } })
    var renders = 0
    func page(_ key: Int) -> String {
      cache.page(for: key) {
        renders += 1
        return "page \(key) #\(renders)"
      }
    }
    #expect(page(1) == "page 1 #1")
    #expect(page(1) == "page 1 #1")
    #expect(page(2) == "page 2 #2")
    #expect(page(1) == "page 1 #3")
    now.withLock { $0 = Date(timeIntervalSince1970: 1_000.9) }
    #expect(page(1) == "page 1 #3")
    now.withLock { $0 = Date(timeIntervalSince1970: 1_001.0) }
    #expect(page(1) == "page 1 #4", "the ages on the page move on")
  }

  @Test("The overview shows a change of the store or of a job at the next request")
  func overview() async throws {
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        #expect(try await client.get("/").text.contains("id=\"overview-update\">idle<"))
        harness.dashboard.updates.relay.update(UpdateStatus(state: .running))
        #expect(try await client.get("/").text.contains("id=\"overview-update\">running<"))
        _ = try harness.dashboardStore().createProfile("kids")
        _ = try harness.dashboardStore().useProfile("kids")
        #expect(try await client.get("/").text.contains("id=\"profile-name\">kids<"))
      }
    }
  }
}
