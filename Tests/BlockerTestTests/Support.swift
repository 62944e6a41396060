import BlockerTest
import Synchronization

/// A probe that answers from a table; names not in it never answer (until cancelled).
final class TableProbe: Probe {
  let answers: [String: Verdict]
  var kind: ProbeKind { .dns }
  var target: String { "table" }
  let started = Mutex<[String]>([])

  init(_ answers: [String: Verdict]) { self.answers = answers }

  func probe(_ hostname: String) async -> Verdict {
    started.withLock { $0.append(hostname) }
    if let answer = answers[hostname] { return answer }
    // Never answers: waits until cancelled (the runner's timeout).
    while !Task.isCancelled { await Task.yield() }
    return Verdict(.inconclusive, "cancelled")
  }
}

/// A small registry: two ad domains, two analytics domains, one control.
let smallRegistry = Registry([
  TestDomain(hostname: "ads.example", category: "Ads", provider: "A"),
  TestDomain(hostname: "banner.example", category: "Ads", provider: "B"),
  TestDomain(hostname: "stats.example", category: "Analytics", provider: "A"),
  TestDomain(hostname: "metrics.example", category: "Analytics", provider: "C"),
  TestDomain(hostname: "example.com", category: "Control", provider: "IANA"),
])
