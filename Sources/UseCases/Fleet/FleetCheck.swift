import Apply
import BlockerTest
import Blocklists
import DNS
import Foundation
import Pihole
import Store

/// Checks each replica of a profile's fleet by its own answers: `fleet status`, the end of `fleet sync`
/// and the dashboard's Fleet page.
///
/// A replica is asked the names changed since it was last verified (from the changes `fleet sync`
/// recorded), a seeded sample of the profile's names, and the control domains: through its DNS server
/// for a resolver, through the Pi-hole's own gravity search for a Pi-hole. When it passes, the replica
/// is recorded as verified at the profile's fingerprint.
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

  /// What every replica is expected to answer: the profile's fingerprint, a sample of its names, and the
  /// primary's serial when the profile has a primary.
  public struct Expectations: Sendable {
    /// The profile's fingerprint now.
    public var fingerprint: String
    /// A seeded sample of the names it blocks.
    public var sample: [String]
    /// The primary's serial as last confirmed, if any.
    public var primarySerial: UInt32?
  }

  /// The expectations for the profile as it is now.
  public func expectations() async throws -> Expectations {
    let plan = try ProfileList.plan(profile: profile, in: store)
    let names = try await plan.load(from: store).list.allNames.filter {
      !PublicSuffixList.bundled.isPublicSuffix($0)
    }
    let primary = FleetPrimary.find(in: store.directory)
    return Expectations(
      fingerprint: plan.fingerprint, sample: Verification.sample(names, count: sample, seed: 43),
      primarySerial: primary?.serial)
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

  /// Checks one replica against `expected`; records it verified when it passes.
  public func check(_ replica: Replica, expected: Expectations) async -> ReplicaReport {
    let start = ContinuousClock.now
    var report: ReplicaReport
    let (names, removed) = changedNames(since: replica, expected: expected)
    switch replica.feed {
    case .pihole: report = await checkPihole(replica, names: names, removed: removed, expected: expected)
    case .transfer, .verifiedOnly:
      report = await checkResolver(replica, names: names, removed: removed, expected: expected)
    }
    report.seconds = (ContinuousClock.now - start).fleetSeconds
    if report.verdict == .verified {
      let serial = replica.feed == .transfer ? expected.primarySerial : nil
      try? store.recordVerified(replica, fingerprint: expected.fingerprint, serial: serial)
    }
    return report
  }

  /// The names to ask `replica`: blocked (the sample and every name added since it was last verified,
  /// less those removed again) and not blocked (those removed since).
  func changedNames(since replica: Replica, expected: Expectations) -> (blocked: [String], removed: [String]) {
    var state: [String: Bool] = [:]
    for change in (try? store.fleetChanges(in: profile, after: replica.verifiedFingerprint)) ?? [] {
      for name in change.added { state[name] = true }
      for name in change.removed { state[name] = false }
    }
    let added = state.filter(\.value).keys.sorted()
    let removed = state.filter { !$0.value }.keys.sorted()
    let blocked = Verification.sample(added, count: 100, seed: 44) + expected.sample.filter { state[$0] != false }
    return (Array(Set(blocked)).sorted(), Verification.sample(removed, count: 100, seed: 45))
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
