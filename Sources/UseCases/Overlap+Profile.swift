import Blocklists
import Foundation
import Store

extension Overlap {
  /// What a profile's enabled sources share (`sanehosts sources overlap`, the dashboard's heatmap):
  /// their copies' block set files merged without rules, so each source's names are what it lists.
  public struct Report: Codable, Sendable, Hashable {
    /// One source's line of the report.
    public struct Source: Codable, Sendable, Hashable {
      public var key: String
      public var name: String
      /// Distinct names it lists.
      public var names: Int
      /// Names no other enabled source lists.
      public var unique: Int
      /// `unique` as a share of its names, in percent.
      public var uniquePercent: Double
      /// Its names as a share of all the sources' distinct names, in percent.
      public var sharePercent: Double
      /// Set when it adds under 1 % unique names: what to consider.
      public var note: String?
    }

    /// Two sources' overlap.
    public struct Pair: Codable, Sendable, Hashable {
      public var a: String
      public var b: String
      /// Names both list.
      public var shared: Int
      /// |A ∩ B| ÷ |A ∪ B|.
      public var jaccard: Double
      /// The share of A's names that B lists, and of B's that A lists, in percent.
      public var aInB: Double
      public var bInA: Double
    }

    public var profile: String
    /// Distinct names of all enabled sources together (before rules).
    public var total: Int
    public var sources: [Source]
    /// Every pair of enabled sources, in profile order.
    public var pairs: [Pair]
    /// Enabled sources without a saved copy yet, left out.
    public var missing: [String]
    /// The overlap as computed, for the matrix.
    public var overlap: Overlap

    /// The share of source `a`'s names that source `b` lists, in percent (100 on the diagonal).
    public func percent(of a: Int, in b: Int) -> Double { overlap.share(of: a, in: b) * 100 }
  }

  /// The overlap of a profile's enabled sources (nil: the active profile).
  public static func report(profile name: String? = nil, in store: Store) async throws -> Report {
    let snapshot = try store.snapshot(of: name)
    let enabled = snapshot.sources.filter(\.enabled).map(\.source)
    let saved = enabled.filter { $0.cacheFile != nil }
    let overlap = Overlap(try await store.merging(copiesOf: saved).finish())
    let sources = zip(saved, overlap.sources).map { source, counts -> Report.Source in
      let uniquePercent = counts.names == 0 ? 0 : Double(counts.unique) / Double(counts.names) * 100
      var line = Report.Source(
        key: source.key, name: source.name, names: counts.names, unique: counts.unique,
        uniquePercent: uniquePercent,
        sharePercent: overlap.total == 0 ? 0 : Double(counts.names) / Double(overlap.total) * 100)
      if saved.count > 1 && uniquePercent < 1 {
        line.note =
          "adds under 1 % unique names (\(counts.unique.grouped) of \(counts.names.grouped)): the other sources already list the rest"
      }
      return line
    }
    let pairs = overlap.pairs.map { pair in
      Report.Pair(
        a: saved[pair.first].key, b: saved[pair.second].key, shared: pair.shared,
        jaccard: overlap.jaccard(pair.first, pair.second),
        aInB: overlap.share(of: pair.first, in: pair.second) * 100,
        bInA: overlap.share(of: pair.second, in: pair.first) * 100)
    }
    return Report(
      profile: snapshot.profile.name, total: overlap.total, sources: sources, pairs: pairs,
      missing: enabled.filter { $0.cacheFile == nil }.map(\.key), overlap: overlap)
  }
}
