import Apply
import Blocklists
import DNS
import Foundation
import Pihole
import Store

/// `fleet sync`: the profile applied to every replica at once, each then verified by its own answers.
///
/// The primary gets the change as signed updates (BIND applies each atomically, so the secondaries never
/// serve a half-changed zone) and the transfer replicas are awaited and verified; every Pi-hole is synced
/// on a session of its own, in parallel, gravity rebuilt only where a list changed (FTL keeps serving the
/// old gravity until the new one is swapped in); the verified-only replicas are verified. One replica's
/// failure never stops the others.
public struct FleetSync: Sendable {
  /// The store holding the profile and its fleet.
  public var store: Store
  /// The profile (nil: the active one).
  public var profile: String?
  /// How Pi-holes are signed in to.
  public var sessions: (any PiholeSessions)?
  /// Where this machine's BIND, the primary, answers SaneHosts' updates.
  public var primaryAddress: ServerAddress
  /// The primary's drop-in; nil: the one `apply --transfer-to` left in the ledger.
  public var output: String?
  /// How long a replica may take to show the change before it counts as differing.
  public var settle: Duration
  /// Whether a Pi-hole's lists and rule entries this profile added and no longer has are removed: a
  /// source removed from the profile, or an allow rule that ended, must leave every Pi-hole.
  public var removeDropped = true

  /// A sync.
  public init(
    store: Store, profile: String? = nil, sessions: (any PiholeSessions)? = nil,
    primaryAddress: ServerAddress = ServerAddress(ip: .v4(IPv4Address("127.0.0.1")!)), output: String? = nil,
    settle: Duration = .seconds(10)
  ) {
    self.store = store
    self.profile = profile
    self.sessions = sessions
    self.primaryAddress = primaryAddress
    self.output = output
    self.settle = settle
  }

  /// What a sync did.
  public struct Outcome: Sendable {
    /// What was sent to the primary, or why not; nil when the fleet has no transfer replica.
    public var primary: String?
    /// Whether the primary took the change.
    public var primaryFailed: Bool
    /// Per Pi-hole, what its sync changed, or why it failed.
    public var piholes: [String: String]
    /// Every replica's report, in the fleet's order.
    public var reports: [ReplicaReport]
    /// Replicas whose memory the profile is known to fill more than half of.
    public var warnings: [String] = []
    /// Whether every replica was verified.
    public var allVerified: Bool { !primaryFailed && reports.allSatisfy { $0.verdict == .verified } }
  }

  /// Applies the profile to every replica and verifies each.
  public func run() async throws -> Outcome {
    let replicas = try store.replicas(in: profile)
    let check = FleetCheck(store: store, profile: profile, sessions: sessions, settle: settle)
    let transfer = replicas.filter { $0.feed == .transfer }
    var outcome = Outcome(primary: nil, primaryFailed: false, piholes: [:], reports: [])
    if let names = try? ProfileList.plan(profile: profile, in: store).names {
      outcome.warnings = replicas.compactMap { FleetCost.warning(for: $0, names: names) }
    }
    if !transfer.isEmpty {
      (outcome.primary, outcome.primaryFailed) = await pushToPrimary(secondaries: transfer)
    }
    // The expectations after the push: the change it recorded is among the names asked.
    let expected = try await check.expectations()
    // A struct, not a tuple: the release build read a task's `(Int, ReplicaReport, String?)` back with
    // a String where nil had been returned (a crash in `fleet sync`, found by the tests of the release
    // binary; the debug build was right).
    let results = await withTaskGroup(of: Synced.self) { group in
      for (index, replica) in replicas.enumerated() {
        group.addTask {
          let line = replica.feed == .pihole ? await syncPihole(replica) : nil
          return Synced(index: index, report: await check.check(replica, expected: expected), piholeLine: line)
        }
      }
      var all: [Synced] = []
      for await result in group { all.append(result) }
      return all.sorted { $0.index < $1.index }
    }
    outcome.reports = results.map(\.report)
    for result in results {
      if let line = result.piholeLine { outcome.piholes[replicas[result.index].name] = line }
    }
    return outcome
  }

  /// One replica's end of a sync: its place in the fleet, its report, and for a Pi-hole what its sync did.
  struct Synced: Sendable {
    var index: Int
    var report: ReplicaReport
    var piholeLine: String?
  }

  /// Applies the profile to the primary as updates, with `secondaries` allowed and notified; records the
  /// names it changed. Returns the line to show and whether it failed.
  func pushToPrimary(secondaries: [Replica]) async -> (String, Bool) {
    let found = FleetPrimary.find(in: store.directory)
    guard let output = output ?? found?.output else {
      return (
        "none yet: run sanehosts apply --target bind --transfer-to ADDRESS… on the machine whose BIND feeds the secondaries",
        true
      )
    }
    let addresses = secondaries.compactMap { $0.resolver.flatMap { try? ServerAddress(parsing: $0) } }
    let setup = PrimarySetup(
      address: primaryAddress, secondaries: addresses, signTransfers: found?.signsTransfers ?? false)
    let file = ApplyDestination.file(
      for: .server(.bind), hostsFile: "/etc/hosts", output: output, data: store.directory)
    do {
      let run = ApplyRun(
        store: store, file: file, target: .server(.bind),
        options: Applier.Options(profile: profile, server: .bind, primary: setup), verify: nil)
      let applied = try await run.run().applied
      if let failure = applied.reloadFailure { return (failure.localizedDescription, true) }
      guard let pushed = applied.pushed else { return ("nothing was sent to the primary", true) }
      try store.recordFleetChange(
        profile: profile, fingerprint: applied.plan.fingerprint, serial: pushed.serial, added: pushed.addedNames,
        removed: pushed.removedNames)
      let reconfigure = applied.result.warnings.filter {
        if case .primaryReconfigure = $0 { return true }
        return false
      }
      return ((["\(pushed.summary)."] + reconfigure.map(\.description)).joined(separator: " "), false)
    } catch {
      return (error.localizedDescription, true)
    }
  }

  /// Syncs one Pi-hole on a session of its own: its lists and rules, then gravity where a list changed.
  func syncPihole(_ replica: Replica) async -> String {
    guard let sessions, let host = replica.pihole else { return "not synced: no Pi-hole session (no password given)" }
    let store = self.store
    let profileName = self.profile
    let removeDropped = self.removeDropped
    do {
      return try await sessions.withClient(host) { client in
        let profile = try store.profile(profileName)
        let plan = try await PiholeSync.plan(for: profile, in: store, with: client, removeDropped: removeDropped)
        try await plan.apply(with: client)
        let removed = plan.toRemove.isEmpty ? "" : ", \(plan.toRemove.count) removed"
        let lists = "\(plan.toAdd.count.counted("list")) added\(removed), \(plan.kept) kept"
        guard plan.needsGravity else { return lists + "; gravity not rebuilt (no list changed)" }
        _ = try await plan.rebuildGravity(with: client) { _ in }
        return lists + "; gravity rebuilt"
      }
    } catch {
      return "not synced: \(error.localizedDescription)"
    }
  }
}
