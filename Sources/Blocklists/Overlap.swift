/// How much the sources of a merged list share: each source's names, those no other source has, and
/// every pair's shared names. Read from the set's source bits in one pass.
public struct Overlap: Sendable, Hashable, Codable {
  /// One source's contribution.
  public struct Source: Sendable, Hashable, Codable {
    /// Its name in the merge.
    public var name: String
    /// Its distinct names.
    public var names: Int
    /// Its names that no other source lists.
    public var unique: Int
  }

  /// Two sources' shared names.
  public struct Pair: Sendable, Hashable, Codable {
    /// The sources, by index into `sources` (`first` < `second`).
    public var first: Int
    public var second: Int
    /// Names both list.
    public var shared: Int
  }

  /// The sources, in the merge's order.
  public var sources: [Source]
  /// Every pair of sources (sharing a name or not), in order.
  public var pairs: [Pair]
  /// Distinct names of all sources together.
  public var total: Int

  /// The overlap of a list merged from sources without rules (`Compiler.Merging`, `Compiler.compile`),
  /// its sources named by their reports.
  public init(_ list: CompiledList) {
    let count = list.sources.count
    var names = [Int](repeating: 0, count: count)
    var unique = [Int](repeating: 0, count: count)
    var shared = [Int](repeating: 0, count: count * count)
    let set = list.names
    var bits: [Int] = []
    for entry in 0..<set.entryCount where !set.isRemoved(entry) {
      bits.removeAll(keepingCapacity: true)
      set.forEachSource(of: entry) { if $0 < count { bits.append($0) } }
      if bits.count == 1 { unique[bits[0]] += 1 }
      for (position, source) in bits.enumerated() {
        names[source] += 1
        for other in bits[(position + 1)...] { shared[source * count + other] += 1 }
      }
    }
    sources = (0..<count).map { Source(name: list.sources[$0].name, names: names[$0], unique: unique[$0]) }
    var pairs: [Pair] = []
    for first in 0..<count {
      for second in (first + 1)..<max(first + 1, count) {
        pairs.append(Pair(first: first, second: second, shared: shared[first * count + second]))
      }
    }
    self.pairs = pairs
    total = set.entryCount - set.removedCount
  }

  /// The names two sources share (a source shares all of its own with itself).
  public func shared(_ a: Int, _ b: Int) -> Int {
    if a == b { return sources[a].names }
    let (first, second) = a < b ? (a, b) : (b, a)
    let count = sources.count
    // Pairs are stored in order: the pairs of every earlier first source, then this one's.
    let index = first * count - first * (first + 1) / 2 + (second - first - 1)
    return pairs[index].shared
  }

  /// |A ∩ B| ÷ |A ∪ B|, 0 when both are empty.
  public func jaccard(_ a: Int, _ b: Int) -> Double {
    let union = sources[a].names + sources[b].names - shared(a, b)
    return union == 0 ? 0 : Double(shared(a, b)) / Double(union)
  }

  /// The share of A's names that B lists too (0 when A is empty).
  public func share(of a: Int, in b: Int) -> Double {
    sources[a].names == 0 ? 0 : Double(shared(a, b)) / Double(sources[a].names)
  }
}
