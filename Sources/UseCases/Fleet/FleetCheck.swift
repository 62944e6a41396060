import Apply
import BlockerTest
import Blocklists
import DNS
import Foundation
import Pihole
import Store

/// Checks each replica of a profile's fleet by its own DNS answers: `fleet status`, the end of `fleet
/// sync` and the dashboard's Fleet page.
///
/// A replica is asked, through its DNS server (a Pi-hole's too), the names changed since it last
/// answered as the profile had it (from the changes `fleet sync` recorded), the names the profile's own
/// rules deny and allow, a seeded sample of the profile's names, and the control domains. It is
/// verified only when its answers match and it holds the profile as it is now: a transfer replica whose
/// primary has not taken the latest change, or a Pi-hole whose lists and rules differ from the profile,
/// is behind. What a replica confirmed is recorded as the state it last answered.
public struct FleetCheck: Sendable {
  /// The store holding the profile and its fleet.
  public var store: Store
  /// The profile (nil: the active one).
  public var profile: String?
  /// How Pi-holes are signed in to; nil: Pi-hole replicas are reported unreachable.
  public var sessions: (any PiholeSessions)?
  /// Names of the profile sampled for each replica, beside the changed ones.
  public var sample: Int
  /// How long each answer may take.
  public var timeout: Duration
  /// How long names not yet as the profile has them are asked again (a secondary still transferring).
  public var settle: Duration
  /// How many replicas are checked at once.
  public var concurrency: Int

  /// A check.
  public init(
    store: Store, profile: String? = nil, sessions: (any PiholeSessions)? = nil, sample: Int = 20,
    timeout: Duration = .seconds(2), settle: Duration = .zero, concurrency: Int = 8
  ) {
    self.store = store
    self.profile = profile
    self.sessions = sessions
    self.sample = sample
    self.timeout = timeout
    self.settle = settle
    self.concurrency = concurrency
  }

  /// What every replica is expected to answer: the profile's fingerprint, a sample of its names, the
  /// names its rules decide, and what the primary last took.
  public struct Expectations: Sendable {
    /// The profile's fingerprint now.
    public var fingerprint: String
    /// A seeded sample of the names it blocks.
    public var sample: [String]
    /// The primary's serial as last confirmed, if any.
    public var primarySerial: UInt32?
    /// The profile's fingerprint when the primary last took it (`fleet sync`'s latest change); nil: never.
    public var pushedFingerprint: String? = nil
    /// Names the profile's own deny rules block (asked of every replica).
    public var denied: [String] = []
    /// Names its allow rules let through.
    public var allowed: [String] = []
    /// Whether the profile blocks a name now, itself or (`coveringParents`) through a listed parent; nil:
    /// not known, every removed name is asked.
    public var blocks: (@Sendable (String, _ coveringParents: Bool) -> Bool)? = nil

    /// Whether the primary holds the profile as it is now.
    public var primaryIsCurrent: Bool { pushedFingerprint == fingerprint }
  }

  /// The expectations for the profile as it is now.
  public func expectations() async throws -> Expectations {
    let plan = try ProfileList.plan(profile: profile, in: store)
    let list = try await plan.load(from: store).list
    let names = list.allNames.filter { !PublicSuffixList.bundled.isPublicSuffix($0) }
    let primary = FleetPrimary.find(in: store.directory)
    let rules = try store.ruleSet(for: plan.profile)
    // Names a rule names outright; local and special-use names are left to the local resolver.
    func named(_ rules: [RuleSet.Rule]) -> [String] {
      rules.filter { ($0.kind == .exact || $0.kind == .subdomains) && SpecialUse.reason($0.pattern) == nil }
        .map(\.pattern)
    }
    return Expectations(
      fingerprint: plan.fingerprint, sample: Verification.sample(names, count: sample, seed: 43),
      primarySerial: primary?.serial, pushedFingerprint: try store.latestFleetChange(in: profile)?.fingerprint,
      denied: Verification.sample(named(rules.deny), count: 100, seed: 46),
      allowed: Verification.sample(named(rules.allow), count: 100, seed: 47),
      blocks: { name, coveringParents in
        list.blocks(name) || (coveringParents && NameRules.parents(of: name).contains(where: list.blocks))
      })
  }

  /// Checks every replica (at most `concurrency` at once) and returns their reports in the fleet's order.
  public func run() async throws -> [ReplicaReport] {
    let replicas = try store.replicas(in: profile)
    let expected = try await expectations()
    return await withTaskGroup(of: (Int, ReplicaReport).self) { group in
      var reports = [ReplicaReport?](repeating: nil, count: replicas.count)
      var next = 0
      func start() {
        guard next < replicas.count else { return }
        let (index, replica) = (next, replicas[next])
        next += 1
        group.addTask { (index, await check(replica, expected: expected)) }
      }
      for _ in 0..<concurrency { start() }
      while let (index, report) = await group.next() {
        reports[index] = report
        start()
      }
      return reports.compactMap { $0 }
    }
  }

  /// Checks one replica against `expected`; records the state it confirmed when its answers match.
  public func check(_ replica: Replica, expected: Expectations) async -> ReplicaReport {
    let start = ContinuousClock.now
    var report: ReplicaReport
    let names = changedNames(since: replica, expected: expected)
    switch replica.feed {
    case .pihole: report = await checkPihole(replica, names: names, expected: expected)
    case .transfer, .verifiedOnly: report = await checkResolver(replica, names: names, expected: expected)
    }
    report.seconds = (ContinuousClock.now - start).fleetSeconds
    let answered = report.verdict == .verified || report.verdict == .differs
    if replica.feed == .transfer, answered, !expected.primaryIsCurrent {
      // It can hold no more than the primary took: matching answers confirm that state, not the profile's,
      // and the names of the change the primary lacks are answered otherwise.
      report.verdict = .behind
      report.behind =
        expected.pushedFingerprint == nil
        ? "the primary has not taken the profile through fleet sync yet: run sanehosts fleet sync"
        : "the profile has changed since the primary last took it: run sanehosts fleet sync"
      if report.answersMatch, let pushed = expected.pushedFingerprint {
        try? store.recordVerified(replica, fingerprint: pushed, serial: report.serial)
      }
    } else if report.verdict == .verified {
      try? store.recordVerified(replica, fingerprint: expected.fingerprint, serial: report.serial)
    }
    return report
  }

  /// The names to ask `replica`: blocked (the sample, the deny rules' names and every name added since
  /// it last answered as the profile had it, less those removed again) and not blocked (those removed
  /// since, less those the profile still blocks, e.g. folded under a newly listed parent; and the allow
  /// rules' names). A replica never confirmed, or confirmed before the changes kept, is asked the
  /// changes kept.
  func changedNames(since replica: Replica, expected: Expectations) -> AskedNames {
    var state: [String: Bool] = [:]
    let changes =
      (try? store.fleetChanges(in: profile, after: replica.verifiedFingerprint))
      ?? (try? store.fleetChanges(in: profile)) ?? []
    for change in changes {
      for name in change.added { state[name] = true }
      for name in change.removed { state[name] = false }
    }
    let added = state.filter(\.value).keys.sorted()
    let covering = replica.feed == .transfer
    let removed = state.filter { !$0.value }.keys.filter { expected.blocks?($0, covering) != true }.sorted()
    let blocked =
      Verification.sample(added, count: 100, seed: 44) + expected.sample.filter { state[$0] != false }
      + expected.denied
    let allowed = Set(expected.allowed)
    return AskedNames(
      blocked: Array(Set(blocked).subtracting(allowed)).sorted(),
      allowed: expected.allowed.sorted(),
      removed: Verification.sample(removed.filter { !allowed.contains($0) }, count: 100, seed: 45))
  }

  /// The names one replica is asked.
  struct AskedNames: Sendable, Hashable {
    /// Names it must block.
    var blocked: [String]
    /// Names the profile's allow rules let through.
    var allowed: [String]
    /// Names removed since it last answered, which it must let through.
    var removed: [String]

    /// How many in all.
    var count: Int { blocked.count + allowed.count + removed.count }
  }

  /// How far behind `replica` is, from its serial against the primary's and when it was last verified.
  func behind(_ replica: Replica, serial: UInt32?, expected: Expectations) -> String? {
    if let serial, let primary = expected.primarySerial, serial != primary {
      let distance = primary &- serial
      return distance < 1 << 31
        ? "\(distance) serial\(distance == 1 ? "" : "s") behind the primary (\(primary))"
        : "serial \(serial), the primary's is \(primary)"
    }
    guard replica.verifiedFingerprint != expected.fingerprint else { return nil }
    guard let date = replica.verifiedAt else { return "never verified" }
    return "last verified \(date.formatted(.iso8601)), before the profile's latest change"
  }
}

extension Duration {
  /// The duration in seconds.
  var fleetSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
