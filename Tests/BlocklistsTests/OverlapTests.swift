import Blocklists
import Testing

@Suite("What sources share")
struct OverlapTests {
  @Test("Names, unique names and every pair's shared names equal set arithmetic on the lists", arguments: [3, 5, 70])
  func againstSets(sources count: Int) async throws {
    var state: UInt64 = UInt64(count)
    func next(_ bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }
    let sets: [Set<String>] = (0..<count).map { _ in Set((0..<200).map { _ in "n\(next(400)).website" }) }
    let texts = sets.map { $0.sorted().joined(separator: "\n") + "\n" }
    let list = try await Compiler().compile(texts.enumerated().map { .text($0.element, name: "s\($0.offset)") })
    let overlap = Overlap(list)
    #expect(overlap.total == sets.reduce(Set<String>()) { $0.union($1) }.count)
    for a in 0..<count {
      let others = sets.enumerated().filter { $0.offset != a }.reduce(Set<String>()) { $0.union($1.element) }
      #expect(overlap.sources[a].names == sets[a].count)
      #expect(overlap.sources[a].unique == sets[a].subtracting(others).count)
      #expect(overlap.sources[a].name == "s\(a)")
      for b in 0..<count {
        let shared = sets[a].intersection(sets[b]).count
        #expect(overlap.shared(a, b) == shared)
        if a != b {
          #expect(overlap.jaccard(a, b) == Double(shared) / Double(sets[a].union(sets[b]).count))
          #expect(overlap.share(of: a, in: b) == Double(shared) / Double(sets[a].count))
        }
      }
    }
    #expect(overlap.pairs.count == count * (count - 1) / 2)
  }

  @Test("One source, and no source")
  func small() async throws {
    let one = Overlap(try await Compiler().compile([.text("a.website\nb.website\n", name: "only")]))
    #expect(one.sources.map(\.unique) == [2])
    #expect(one.pairs.isEmpty)
    let none = Overlap(Compiler.Merging(sourceCount: 0).finish())
    #expect(none.sources.isEmpty && none.total == 0)
  }
}
