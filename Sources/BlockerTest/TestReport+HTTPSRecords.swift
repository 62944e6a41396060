import DNS
import Foundation

extension TestReport {
  /// For a run through the system resolver (a hosts file): asks the DNS server `server` for the HTTPS
  /// records (type 65) of the names found blocked. A hosts file answers only A and AAAA, so a browser's
  /// HTTPS query still reaches the DNS server; a blocked name whose record there carries a routable
  /// address hint becomes `leaking`, and a warning says what a hosts file cannot block. When the server
  /// does not answer, the warning says so and nothing changes.
  public func checkingHTTPSRecords(through server: ServerAddress?, timeout: Duration = .seconds(2)) async -> TestReport
  {
    let blocked = results.indices.filter { results[$0].outcome == .blocked }
    guard probe == .system, !blocked.isEmpty else { return self }
    var report = self
    guard let server else {
      report.warnings.append(
        "a hosts file blocks A and AAAA only: no DNS server in /etc/resolv.conf to ask for the HTTPS records of the \(blocked.count) blocked names"
      )
      return report
    }
    let probe = DNSProbe(resolver: Resolver(server: server), timeout: timeout)
    // One query first: a server that does not answer is said once, not timed out for every name.
    do {
      _ = try await probe.resolver.query(results[blocked[0]].hostname, ServiceBinding.https, timeout: timeout)
    } catch {
      report.warnings.append(
        "a hosts file blocks A and AAAA only, and the DNS server \(server) did not answer for HTTPS records (\(DNSProbe.describe(error))): not checked"
      )
      return report
    }
    var leaks = 0
    await withTaskGroup(of: (Int, Verdict?).self) { group in
      for index in blocked {
        group.addTask { (index, await probe.httpsLeak(of: self.results[index].hostname, chain: nil)) }
      }
      for await (index, leak) in group {
        guard let leak, let hint = leak.addresses.first else { continue }
        leaks += 1
        report.results[index].outcome = .leaking
        report.results[index].addresses = leak.addresses
        report.results[index].reason =
          "leaks via HTTPS record: the hosts file blocks A and AAAA, the DNS server \(server) answers its HTTPS record with address hint \(hint)"
      }
    }
    report.warnings.append(
      "a hosts file blocks A and AAAA only: the HTTPS records browsers ask for come from the DNS server \(server); \(leaks) of \(blocked.count) blocked names leak an address through them"
    )
    return report
  }
}
