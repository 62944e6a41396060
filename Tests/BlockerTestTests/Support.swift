import BlockerTest
import Foundation
import Locking

/// A probe that answers from a table; names not in it never answer (until cancelled).
final class TableProbe: Probe {
  let answers: [String: Verdict]
  var kind: ProbeKind { .dns }
  var target: String { "table" }
  let started = Locked<[String]>([])

  init(_ answers: [String: Verdict]) { self.answers = answers }

  func probe(_ hostname: String) async -> Verdict {
    started.withLock { $0.append(hostname) }
    if let answer = answers[hostname] { return answer }
    // Never answers: suspends until cancelled (the runner's timeout), without using a core meanwhile.
    try? await Task.sleep(for: .seconds(3600))
    return Verdict(.inconclusive, "cancelled")
  }
}

/// A small registry: two ad domains, two analytics domains, one control.
let smallRegistry = Registry([
  TestDomain(hostname: "ads.website", category: "Ads", provider: "A"),
  TestDomain(hostname: "banner.website", category: "Ads", provider: "B"),
  TestDomain(hostname: "stats.website", category: "Analytics", provider: "A"),
  TestDomain(hostname: "metrics.website", category: "Analytics", provider: "C"),
  TestDomain(hostname: "example.com", category: "Control", provider: "IANA"),
])

/// A report built by hand: `outcomes` maps hostname to outcome, over `smallRegistry`'s tested domains.
func report(_ outcomes: [String: Outcome], id: Int64? = nil) -> TestReport {
  let results = smallRegistry.tested.map { domain in
    let outcome = outcomes[domain.hostname] ?? .inconclusive
    let reason = outcome == .blocked ? "NXDOMAIN" : outcome == .reachable ? "192.0.2.1" : "timeout after 2 s"
    return DomainResult(domain: domain, verdict: Verdict(outcome, reason), milliseconds: domain.hostname.count * 10)
  }
  return TestReport(
    id: id, startedAt: Date(timeIntervalSince1970: 1_800_000_000), milliseconds: 420, probe: .dns,
    target: "127.0.0.1:53", timeoutMilliseconds: 2000, controls: [], results: results)
}
