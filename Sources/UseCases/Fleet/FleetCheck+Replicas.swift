import BlockerTest
import Blocklists
import DNS
import Foundation
import Pihole
import Store

extension FleetCheck {
  /// Checks a resolver (fed by transfer or otherwise) through its DNS server.
  func checkResolver(_ replica: Replica, names: [String], removed: [String], expected: Expectations) async
    -> ReplicaReport
  {
    let text = replica.resolver ?? ""
    var report = ReplicaReport(
      name: replica.name, feed: replica.feed, address: text, verdict: .unreachable, serves: "unknown",
      detail: "")
    guard let address = try? ServerAddress(parsing: text) else {
      report.detail = "“\(text)” is not a DNS server address"
      return report
    }
    let resolver = Resolver(server: address)
    // A first answer or none: a replica that does not answer is unreachable, not a list of misses.
    do {
      _ = try await resolver.query(expected.sample.first ?? "example.com", .a, timeout: timeout)
    } catch {
      report.detail = error.localizedDescription
      return report
    }
    // A secondary that answers the zone's SOA shows its serial; one that holds no copy says so (BIND:
    // SERVFAIL), where a recursor that does not serve the zone answers otherwise.
    var soaCode: ResponseCode?
    if replica.feed == .transfer,
      let soa = try? await resolver.query(Renderer.rpzOrigin, .soa, timeout: timeout, recursionDesired: false)
    {
      soaCode = soa.responseCode
      report.serial =
        soa.answers.lazy.compactMap { if case .soa(let data) = $0.data { data.serial } else { nil } }.first
    }
    report.serves = report.serial.map { "\(Renderer.rpzOrigin) serial \($0)" } ?? "answers (serial not served)"
    let verification = await Verification.verify(
      names, removed: removed, through: address,
      context: Verification.Context(reloaded: true, server: true, path: "replica \(replica.name)"),
      timeout: timeout, settle: settle)
    report.asked = names.count + removed.count + verification.controls.count
    report.verdict = verification.passed ? .verified : .differs
    report.detail = verification.summary
    let serialMatches = report.serial == nil || report.serial == expected.primarySerial
    report.behind =
      verification.passed && serialMatches ? nil : behind(replica, serial: report.serial, expected: expected)
    if replica.feed == .transfer, !names.isEmpty, verification.blocked == 0 {
      // Nothing of the profile blocked: no copy of the zone at all, not a late one.
      report.behind =
        "holds no copy of the zone\(soaCode == .servFail ? " (SERVFAIL for its SOA)" : ""): the primary refuses its transfers (is its address in allow-transfer, and the primary reconfigured?) or cannot be reached from it"
    } else if !verification.passed, report.behind == nil, replica.feed == .transfer {
      report.behind = "its answers are behind the profile"
    }
    return report
  }

  /// Checks a Pi-hole through its API: its lists against the profile's sources, gravity's age and size,
  /// and each name through its own gravity search (one at a time: concurrent searches crash FTL v6.4.1).
  func checkPihole(_ replica: Replica, names: [String], removed: [String], expected: Expectations) async
    -> ReplicaReport
  {
    let host = replica.pihole ?? ""
    var report = ReplicaReport(
      name: replica.name, feed: .pihole, address: host, verdict: .unreachable, serves: "unknown", detail: "")
    guard let sessions else {
      report.detail = "no Pi-hole session could be opened (no password given)"
      return report
    }
    let store = self.store
    let profile = self.profile
    do {
      let found = try await sessions.withClient(host) { client in
        let summary = try await client.summary()
        let lists = try await client.lists(type: "block")
        let sources = try store.sources(in: profile)
        let plan = PiholeSync(profile: profile ?? "", sources: sources, existing: lists, removeDropped: false)
        let searches = try await client.searchAll(names + removed)
        return (summary, lists.count, plan, searches)
      }
      let (summary, listCount, plan, searches) = found
      let age = summary.gravityUpdated.map { Int(Date().timeIntervalSince($0)) }
      report.serves =
        "\(listCount) list\(listCount == 1 ? "" : "s"), gravity \(age.map(Self.ageText) ?? "never built")"
        + (summary.domainsBeingBlocked.map { ", \($0.formatted()) domains" } ?? "")
      report.asked = names.count + removed.count
      let notBlocked = names.filter { searches[$0].map(Self.blocks) != true }
      let stillBlocked = removed.filter { searches[$0].map(Self.blocks) == true }
      if !plan.toAdd.isEmpty || !plan.changed.isEmpty {
        report.verdict = .differs
        report.detail =
          "\(plan.toAdd.count) of the profile's lists missing, \(plan.changed.count) changed since its gravity was built"
      } else if !notBlocked.isEmpty || !stillBlocked.isEmpty {
        report.verdict = .differs
        report.detail =
          "\(notBlocked.count) of \(names.count) names not blocked (\(notBlocked.prefix(3).joined(separator: ", "))), \(stillBlocked.count) removed names still blocked"
      } else {
        report.verdict = .verified
        report.detail =
          "verified: \(names.count)/\(names.count) names blocked by its gravity, \(removed.count) removed names let through"
      }
      if report.verdict != .verified { report.behind = behind(replica, serial: nil, expected: expected) }
    } catch {
      report.detail = error.localizedDescription
    }
    return report
  }

  /// Whether a Pi-hole's search says it blocks the name: a block list or an enabled deny rule, and no
  /// enabled allow rule.
  static func blocks(_ search: PiholeSearch) -> Bool {
    if search.domains.contains(where: { $0.type == "allow" && $0.enabled }) { return false }
    return search.gravity.contains { $0.type == "block" } || search.domains.contains { $0.type == "deny" && $0.enabled }
  }

  /// `42 s old`, `3 min old`, `5 h old`, `2 days old`.
  static func ageText(_ seconds: Int) -> String {
    switch seconds {
    case ..<60: "\(max(0, seconds)) s old"
    case ..<3600: "\(seconds / 60) min old"
    case ..<86_400: "\(seconds / 3600) h old"
    default: "\(seconds / 86_400) days old"
    }
  }
}
