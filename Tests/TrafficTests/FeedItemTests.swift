import Blocklists
import Foundation
import Testing

@testable import Traffic

@Suite("The live feed's items")
struct FeedItemTests {
  @Test("A blocked query with its lists; a server's block the profile does not explain; nothing else")
  func items() async throws {
    let list = try await HitCounterTests.compiled()
    var counter = HitCounter(
      attribution: Attribution(compiled: list, format: .dnsmasq), since: nil, byClient: false)
    let time = Date(timeIntervalSince1970: 1_795_757_000)
    #expect(
      counter.feed(.query(time: time, name: "x.tracker.website", type: "AAAA", client: "10.0.0.2"))
        == FeedItem(time: time, name: "x.tracker.website", type: "AAAA", lists: ["first", "second"], client: nil))
    #expect(counter.feed(.query(time: time, name: "clean.website", type: "A", client: nil)) == nil)
    #expect(counter.feed(.blocked(time: time, name: "x.tracker.website", client: nil)) == nil, "already shown")
    #expect(
      counter.feed(.blocked(time: time, name: "other.website", client: nil))
        == FeedItem(time: time, name: "other.website", type: nil, lists: [], client: nil))
    let report = counter.report(profile: "p", server: "s", sources: [], top: 5)
    #expect(report.queries == 2 && report.serverBlocked == 2 && report.blockedElsewhere == 1)
  }
}
