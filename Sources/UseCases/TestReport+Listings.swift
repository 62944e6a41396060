import BlockerTest
import Blocklists
import Store

extension TestReport {
  /// Fills `listedBy` for every reachable domain: the store's sources that list it (“which list would
  /// block this?”, the Explainer's answer); and turns a reachable domain whose CNAME chain passes through
  /// a name the store's sources list into `leaking` (CNAME cloaking the server let through, whatever its
  /// cache answers for the listed name when asked alone). `rule` says which of the active profile's rules
  /// decides each domain.
  public func annotated(with store: Store) async -> TestReport {
    var report = self
    let rules = (try? store.ruleSet(for: store.profile(nil))) ?? RuleSet()
    let reachable = report.results.filter { $0.outcome == .reachable }
    let asked = Array(Set(reachable.flatMap { [$0.hostname] + ($0.chain ?? []).dropFirst() })).sorted()
    let listing = (try? await Explainer(store: store).listing(asked)) ?? [:]
    for index in report.results.indices {
      let hostname = report.results[index].hostname
      report.results[index].rule = rules.decision(for: hostname)?.summary
      guard report.results[index].outcome == .reachable else { continue }
      report.results[index].listedBy = (listing[hostname] ?? []).map {
        $0.exact ? $0.source : "\($0.source) (as \($0.matched))"
      }
      let chain = report.results[index].chain ?? []
      if let target = chain.dropFirst().first(where: { !(listing[$0] ?? []).isEmpty }),
        rules.decision(for: target)?.allows != true
      {
        let keys = (listing[target] ?? []).map(\.source)
        report.results[index].outcome = .leaking
        report.results[index].reason =
          "leaks via CNAME: \(chain.joined(separator: " → ")) answers \(report.results[index].reason), though \(target) is listed by \(keys.joined(separator: ", "))"
      }
    }
    return report
  }
}
