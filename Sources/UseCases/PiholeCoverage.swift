import BlockerTest
import Pihole

/// Which of a Pi-hole's lists (and its own rules) block each domain of a test report: `test --pihole`
/// asks here, the front end only shows the progress and the answer.
public enum PiholeCoverage {
  /// Searches the Pi-hole for every domain of `report`, strictly one at a time on one session (concurrent
  /// searches crash FTL v6.4.1), reporting `progress(done, total)`, and sorts the answers by list.
  public static func of(
    _ report: TestReport, client: PiholeClient, progress: @Sendable (Int, Int) -> Void = { _, _ in }
  ) async throws -> TestReport.Coverage {
    let names = report.results.map(\.hostname)
    return coverage(of: names, searches: try await client.searchAll(names, progress: progress))
  }

  /// The coverage the searches' answers give: per list (or rule) the domains it blocks, most first;
  /// the domains nothing blocks; the domains a rule of the Pi-hole allows.
  public static func coverage(of names: [String], searches: [String: PiholeSearch]) -> TestReport.Coverage {
    var bySource: [String: [String]] = [:]
    var uncovered: [String] = []
    var allowed: [String] = []
    for name in names {
      guard let search = searches[name] else { continue }
      if search.domains.contains(where: { $0.type == "allow" && $0.enabled }) { allowed.append(name) }
      let sources =
        search.gravity.filter { $0.type == "block" }.map(\.address)
        + search.domains.filter { $0.type == "deny" && $0.enabled }.map { "deny \($0.kind): \($0.domain)" }
      if sources.isEmpty { uncovered.append(name) }
      for source in Set(sources) { bySource[source, default: []].append(name) }
    }
    let sources = bySource.map { TestReport.Coverage.Source(name: $0.key, domains: $0.value) }
      .sorted { ($0.domains.count, $1.name) > ($1.domains.count, $0.name) }
    return TestReport.Coverage(sources: sources, uncovered: uncovered, allowed: allowed)
  }
}
