import BlockerTest
import Foundation
import Store
import TestSupport
import Testing

@Suite("History of blocker tests")
struct HistoryTests {
  @Test("A saved report reads back whole, with its id; runs are listed newest first")
  func saveAndLoad() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let history = History(store: try Store.open(DataDirectory(url: directory.file("data"))))
    #expect(try history.latest() == nil)
    let first = try history.save(report(["ads.website": .blocked]))
    var later = report(["ads.website": .reachable, "stats.website": .blocked])
    later.startedAt = later.startedAt.addingTimeInterval(60)
    let second = try history.save(later)
    #expect(first.id != nil && second.id != nil && first.id != second.id)
    #expect(try history.load(first.id!) == first)
    #expect(try history.list().map(\.id) == [second.id, first.id])
    #expect(try history.list().first?.blocked == 1)
    #expect(try history.latest() == second)
    #expect(throws: StoreError.self) { try history.load(999) }
  }

  @Test("diff names the newly blocked, the newly reachable and the rest")
  func difference() {
    let old = report(["ads.website": .reachable, "banner.website": .blocked, "stats.website": .inconclusive], id: 1)
    let new = report(["ads.website": .blocked, "banner.website": .reachable, "stats.website": .blocked], id: 2)
    let diff = RunDifference(from: old, to: new)
    #expect(diff.newlyBlocked.map(\.hostname) == ["ads.website", "stats.website"])
    #expect(diff.newlyReachable.map(\.hostname) == ["banner.website"])
    #expect(diff.other.isEmpty)
    #expect(diff.scores.map(\.blocked) == [1, 2])
    #expect(RunDifference(from: old, to: old).isEmpty)
  }
}
