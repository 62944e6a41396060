import Foundation
import Testing

@testable import Store

@Suite("Whether a source is stale, and its trend")
struct SourceHealthTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func source(lastChange: Date?, headerDate: Date?) -> Source {
    var source = Source(id: 1, key: "k", name: "k", location: "https://lists.website/k.txt")
    source.cacheFile = "lists/k.list"
    source.lastChange = lastChange
    source.headerDate = headerDate
    return source
  }

  @Test("Unchanged for more than the limit, or dated older by its own header (named first), is stale")
  func staleness() {
    let day = 86_400.0
    #expect(source(lastChange: now - 10 * day, headerDate: nil).staleness(days: 30, now: now) == nil)
    let unchanged = source(lastChange: now - 40 * day, headerDate: nil).staleness(days: 30, now: now)
    #expect(unchanged?.reason == .unchanged)
    #expect(unchanged?.days == 40)
    #expect(unchanged?.description == "its content has not changed for 40 days")
    let header = source(lastChange: now - 40 * day, headerDate: now - 400 * day).staleness(days: 30, now: now)
    #expect(header?.reason == .headerDate)
    #expect(header?.days == 400)
    #expect(
      source(lastChange: now - day, headerDate: now - 31 * day).staleness(days: 30, now: now)?.reason == .headerDate)
    var never = source(lastChange: nil, headerDate: nil)
    never.cacheFile = nil
    #expect(never.staleness(days: 1, now: now) == nil)
  }

  @Test("The trend is the names now, before, and the change")
  func trend() {
    var source = source(lastChange: nil, headerDate: nil)
    #expect(source.trend.change == nil)
    source.unique = 80
    source.previousUnique = 100
    #expect(source.trend.now == 80 && source.trend.before == 100 && source.trend.change == -20)
  }
}
