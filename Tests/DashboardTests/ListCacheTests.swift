import Foundation
import NIOHTTP1
import Store
import TestSupport
import Testing

@testable import Dashboard

@Suite("List subscriptions: stable URLs with ETag and If-None-Match")
struct ListCacheTests {
  @Test("Each format at its URL; a 304 for the same ETag; a new rule gives a new ETag; unknown names are 404")
  func subscriptions() async throws {
    try await DashboardHarness.with { harness in
      let store = try harness.dashboardStore()
      _ = try store.addRule("ads.website", action: .deny)
      _ = try store.addRule("tracker.website", action: .deny)
      try await harness.live { client async throws in
        let hosts = try await client.request("/lists/default.hosts")
        #expect(hosts.status == 200)
        #expect(hosts.body.contains("0.0.0.0 ads.website"))
        #expect(hosts.headers.first(name: "Content-Type") == "text/plain; charset=utf-8")
        let etag = try #require(hosts.headers.first(name: "ETag"))
        #expect(hosts.headers.first(name: "Last-Modified") != nil)
        let domains = try await client.request("/lists/default.txt")
        #expect(domains.body.split(separator: "\n").contains("ads.website"))
        let adblock = try await client.request("/lists/default.adblock")
        #expect(adblock.body.contains("||ads.website^"))
        #expect(adblock.body.contains("||tracker.website^"))

        let again = try await client.request("/lists/default.hosts")
        #expect(again.headers.first(name: "ETag") == etag)
        #expect(again.body == hosts.body)
        let unchanged = try await client.request("/lists/default.hosts", headers: [("If-None-Match", etag)])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        // Two hosts requests, a 304 and two other formats: each format was rendered once.
        #expect(await harness.dashboard.lists.renders == 3)
        let head = try await client.request("/lists/default.hosts", method: .HEAD)
        #expect(head.status == 200 && head.headers.first(name: "Content-Length") == "\(hosts.body.utf8.count)")

        _ = try store.addRule("more.website", action: .deny)
        let changed = try await client.request("/lists/default.hosts", headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.body.contains("more.website"))
        #expect(changed.headers.first(name: "ETag") != etag)
        #expect(await harness.dashboard.lists.renders == 4)

        #expect(try await client.request("/lists/nobody.hosts").status == 404)
        let format = try await client.request("/lists/default.xml")
        #expect(format.status == 404 && format.body.contains("PROFILE.hosts"))
      }
    }
  }
}
