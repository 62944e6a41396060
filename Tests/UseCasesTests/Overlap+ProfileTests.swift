import Blocklists
import Foundation
import Store
import TestSupport
import Testing
import UseCases

@Suite("A profile's sources compared")
struct OverlapProfileTests {
  @Test("Counts, shares and notes agree with the lists' membership computed without the engine")
  func report() async throws {
    let harness = try UpdatedStore()
    defer { harness.remove() }
    let lists = ExplainerTests.lists(seed: 9)
    for list in lists { try harness.add(list.text, key: list.key) }
    // A list that adds nothing of its own, and a disabled one that must not count.
    let copy = lists[0].text.split(separator: "\n").prefix(50).joined(separator: "\n") + "\n"
    try harness.add(copy, key: "subset")
    try harness.add("0.0.0.0 only-disabled.website\n", key: "off")
    try harness.store.setEnabled(false, source: "off", in: nil)
    try harness.store.addRule("d1.website", action: .allow)  // rules do not change what lists list
    try await harness.update()

    let report = try await Overlap.report(in: harness.store)
    let sets = (lists.map(\.text) + [copy]).map { Set(ExplainerTests.membership($0).keys) }
    #expect(report.sources.map(\.key) == lists.map(\.key) + ["subset"])
    #expect(report.total == sets.reduce(Set<String>()) { $0.union($1) }.count)
    for (a, source) in report.sources.enumerated() {
      let others = sets.enumerated().filter { $0.offset != a }.reduce(Set<String>()) { $0.union($1.element) }
      #expect(source.names == sets[a].count)
      #expect(source.unique == sets[a].subtracting(others).count)
      #expect(abs(source.sharePercent - Double(sets[a].count) / Double(report.total) * 100) < 1e-9)
    }
    #expect(report.sources.last?.note?.contains("adds under 1 % unique names") == true)
    #expect(report.sources.first?.note == nil)
    let pair = try #require(report.pairs.first { $0.a == "hosts-list" && $0.b == "subset" })
    #expect(pair.shared == sets[0].intersection(sets[3]).count)
    #expect(pair.bInA == 100)
    #expect(report.pairs.count == 6)
  }
}
