import BlockerTest
import Blocklists
import DNS
import Foundation
import Pihole
import Store

extension FleetCheck {
  /// Checks a resolver (fed by transfer or otherwise) through its DNS server.
  func checkResolver(_ replica: Replica, names: AskedNames, expected: Expectations) async -> ReplicaReport {
    let text = replica.resolver ?? ""
    var report = ReplicaReport(
      name: replica.name, feed: replica.feed, address: text, verdict: .unreachable, serves: "unknown",
      detail: "")
    guard let address = try? ServerAddress(parsing: text) else {
      report.detail = "“\(text)” is not a DNS server address"
      return report
    }
    let resolver = Resolver(server: address)
    var soaCode: ResponseCode?
    if replica.feed == .transfer { (report.serial, soaCode) = await zoneSerial(resolver) }
    guard let verification = await verifyAnswers(names, at: address, replica: replica, report: &report) else {
      return report
    }
    // The serial the replica answers once the answers settled, not the one before they did.
    if replica.feed == .transfer { (report.serial, soaCode) = await zoneSerial(resolver) }
    report.serves = report.serial.map { "\(Renderer.rpzOrigin) serial \($0)" } ?? "answers (serial not served)"
    let serialMatches = report.serial == nil || report.serial == expected.primarySerial
    report.behind =
      verification.passed && serialMatches ? nil : behind(replica, serial: report.serial, expected: expected)
    if replica.feed == .transfer, !names.blocked.isEmpty, verification.blocked == 0 {
      // Nothing of the profile blocked: no copy of the zone at all, not a late one.
      report.behind =
        "holds no copy of the zone\(soaCode == .servFail ? " (SERVFAIL for its SOA)" : ""): the primary refuses its transfers (is its address in allow-transfer, and the primary reconfigured?) or cannot be reached from it"
    } else if !verification.passed, report.behind == nil, replica.feed == .transfer {
      report.behind = "its answers are behind the profile"
    }
    return report
  }

  /// The policy zone's serial a secondary answers (asked without recursion: its own copy, never a cache),
  /// and the answer's code; a secondary without a copy says so (BIND: SERVFAIL), a recursor that does not
  /// serve the zone answers otherwise.
  func zoneSerial(_ resolver: Resolver) async -> (UInt32?, ResponseCode?) {
    guard let soa = try? await resolver.query(Renderer.rpzOrigin, .soa, timeout: timeout, recursionDesired: false)
    else { return (nil, nil) }
    let serial = soa.answers.lazy.compactMap { if case .soa(let data) = $0.data { data.serial } else { nil } }.first
    return (serial, soa.responseCode)
  }

  /// Asks `names` and the control domains through the replica's DNS server at `address` and fills in the
  /// report's verdict (verified or differs), detail and misses; nil, with the report unreachable, when
  /// the server gives no answer at all.
  func verifyAnswers(_ names: AskedNames, at address: ServerAddress, replica: Replica, report: inout ReplicaReport)
    async -> Verification?
  {
    // A first answer or none: a replica that does not answer is unreachable, not a list of misses. A
    // control domain is asked: a name of the profile asked before the replica took a change would
    // leave the old answer in its cache.
    let first = Registry.builtIn.controls.first?.hostname ?? "example.com"
    do {
      _ = try await Resolver(server: address).query(first, .a, timeout: timeout)
    } catch {
      report.verdict = .unreachable
      report.detail = "its DNS server \(error.localizedDescription)"
      return nil
    }
    let verification = await Verification.verify(
      names.blocked, allowed: names.allowed, removed: names.removed, through: address,
      context: Verification.Context(reloaded: true, server: true, path: "replica \(replica.name)"),
      timeout: timeout, settle: settle)
    report.asked = names.count + verification.controls.count
    report.answersMatch = verification.passed
    report.verdict = verification.passed ? .verified : .differs
    report.misses = (verification.notBlocked + verification.stillBlocked).prefix(ReplicaReport.missesShown).map {
      "\($0.name): \($0.reason)"
    }
    let wrong = verification.notBlocked.count + verification.stillBlocked.count
    report.detail =
      verification.summary
      + (report.misses.isEmpty
        ? ""
        : "; answered otherwise\(wrong > report.misses.count ? " (\(report.misses.count) of \(wrong))" : ""): "
          + report.misses.joined(separator: ", "))
    return verification
  }

  /// Checks a Pi-hole: through its API, what it holds against the profile (lists, rules, gravity, its
  /// blocking switch); through its DNS server (`--resolver`, else its host on port 53), how it answers.
  func checkPihole(_ replica: Replica, names: AskedNames, expected: Expectations) async -> ReplicaReport {
    let host = replica.pihole ?? ""
    var report = ReplicaReport(
      name: replica.name, feed: .pihole, address: host, verdict: .unreachable, serves: "unknown", detail: "")
    guard let sessions else {
      report.detail = "no Pi-hole session could be opened (no password given)"
      return report
    }
    let server: ServerAddress
    do {
      server = try Self.piholeDNS(replica)
      report.address = "\(host), DNS \(server)"
    } catch {
      report.detail = "\(error.localizedDescription) Give its DNS server: sanehosts fleet add … --resolver IP[:PORT]."
      return report
    }
    let store = self.store
    let profile = self.profile
    let held: (summary: PiholeSummary, lists: Int, plan: PiholeSync)
    do {
      held = try await sessions.withClient(host) { client in
        let summary = try await client.summary()
        let lists = try await client.lists(type: "block")
        let plan = try await PiholeSync.plan(
          for: try store.profile(profile), in: store, with: client, removeDropped: true)
        return (summary, lists.count, plan)
      }
    } catch {
      report.verdict = Self.refuses(error) ? .refused : .unreachable
      report.detail = error.localizedDescription
      return report
    }
    let age = held.summary.gravityUpdated.map { Int(Date().timeIntervalSince($0)) }
    report.serves =
      "\(held.lists) list\(held.lists == 1 ? "" : "s"), gravity \(age.map(Self.ageText) ?? "never built")"
      + (held.summary.domainsBeingBlocked.map { ", \($0.formatted()) domains" } ?? "")
      + (held.summary.blocking.map { ", blocking \($0)" } ?? "")
    guard await verifyAnswers(names, at: server, replica: replica, report: &report) != nil else { return report }
    if !report.answersMatch, let blocking = held.summary.blocking, blocking != "enabled" {
      report.detail = "its blocking is \(blocking) (pihole enable turns it back on); " + report.detail
    }
    if let pending = Self.pending(held.plan) {
      // What it lacks explains the names it answers otherwise: it is behind, and says which.
      report.verdict = .behind
      report.behind = pending + ": run sanehosts fleet sync"
    } else if report.verdict != .verified {
      report.behind = behind(replica, serial: nil, expected: expected)
    }
    return report
  }

  /// What a Pi-hole still lacks of the profile (lists and rules to add or remove, lists whose content
  /// changed since its gravity was built); nil when nothing.
  static func pending(_ plan: PiholeSync) -> String? {
    var parts: [String] = []
    if !plan.toAdd.isEmpty { parts.append("\(plan.toAdd.count) of the profile's lists missing") }
    if !plan.toRemove.isEmpty { parts.append("\(plan.toRemove.count) dropped lists still on it") }
    if !plan.changed.isEmpty { parts.append("\(plan.changed.count) lists changed since its gravity was built") }
    if !plan.rulesToAdd.isEmpty { parts.append("\(plan.rulesToAdd.count) of the profile's rules missing") }
    if !plan.rulesToRemove.isEmpty { parts.append("\(plan.rulesToRemove.count) dropped rules still on it") }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// Whether a Pi-hole's error is a refusal of SaneHosts (password, two-factor code), not a failure to reach it.
  static func refuses(_ error: any Error) -> Bool {
    switch error as? PiholeError {
    case .wrongPassword, .passwordRequired, .totpRequired: true
    default: false
    }
  }

  /// Where a Pi-hole answers DNS: its `--resolver`, else its API's host on port 53.
  static func piholeDNS(_ replica: Replica) throws -> ServerAddress {
    if let resolver = replica.resolver { return try ServerAddress(parsing: resolver) }
    let host = try PiholeHost(replica.pihole ?? "").host
    return try ServerAddress(parsing: try TestPlan.dnsServer(atHost: host))
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
