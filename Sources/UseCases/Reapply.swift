import Apply
import BlockerTest
import Blocklists
import DNS
import Foundation
import Store

/// The profile applied again to every place it is applied to, each the way it was applied: every file in
/// the ledger holding it (the hosts file, drop-ins; with the options, reload and verification recorded
/// with it), and the profile's fleet (the primary, the Pi-holes, every replica verified).
///
/// What runs it: an allow rule ending (`RuleExpiry`), `sanehosts reapply`, and the Debian package's
/// privileged unit. One place failing never stops the others.
public struct Reapply: Sendable {
  /// The store.
  public var store: Store
  /// The profiles whose places are applied again; nil: every profile a place holds.
  public var profiles: Set<String>?
  /// How the fleet's Pi-holes are signed in to (nil: they are reported not synced).
  public var sessions: (any PiholeSessions)?
  /// How long a fleet's replica may take to show the change.
  public var settle: Duration
  /// What may be taken from the store (root on a store another user can write: `Limits.forProcess`).
  public var limits: Limits

  /// A reapply.
  public init(
    store: Store, profiles: Set<String>? = nil, sessions: (any PiholeSessions)? = nil, settle: Duration = .seconds(10),
    limits: Limits = .none
  ) {
    self.limits = limits
    self.store = store
    self.profiles = profiles
    self.sessions = sessions
    self.settle = settle
  }

  /// What was done at one place.
  public struct Place: Sendable, Hashable, Encodable {
    /// `hosts`, a server target's name, or `fleet`.
    public var target: String
    /// The file, or the fleet's profile.
    public var path: String
    /// The profile applied.
    public var profile: String
    /// What happened, in a sentence.
    public var line: String
    /// Whether it failed: not written, not reloaded, not verified, or a replica that differs.
    public var failed: Bool
  }

  /// What a reapply did.
  public struct Outcome: Sendable, Encodable {
    /// Every place, in the ledger's order, the fleets last.
    public var places: [Place] = []
    /// Whether every place was applied (and, where it was verified before, verified again).
    public var succeeded: Bool { !places.contains { $0.failed } }
  }

  /// Applies every place again.
  public func run() async -> Outcome {
    let placed = Ledger(url: store.directory.ledger).entries()
      .filter { _, entry in entry.profile.map { profiles?.contains($0) ?? true } ?? false }
      .sorted { ($0.value.date, $0.key) < ($1.value.date, $1.key) }
    let entries = placed.map(\.value)
    let fleets = Set(entries.compactMap(\.profile)).union(profiles ?? []).sorted().filter { profile in
      !((try? store.replicas(in: profile)) ?? []).isEmpty
    }
    var outcome = Outcome()
    // Applies asked for by a process that may not write the files (the dashboard): done first, as asked,
    // whichever profiles this run is for (a request taken is never left undone).
    var requested = Set<String>()
    for request in ApplyRequest.take(in: store.directory) {
      requested.insert(Ledger.key(request.path))
      outcome.places.append(await apply(request))
    }
    for (path, entry) in placed where !requested.contains(path) {
      let profile = entry.profile ?? ""
      // The fleet's sync applies its primary.
      if entry.recipe?.options.primary != nil && fleets.contains(profile) { continue }
      outcome.places.append(await apply(entry, at: path))
    }
    // A Pi-hole of a profile deleted since is left alone.
    for pihole in SyncedPiholes.all(in: store.directory)
    where profiles.map({ $0.contains(pihole.profile) }) ?? true && (try? store.profile(pihole.profile)) != nil {
      let inFleet = ((try? store.replicas(in: pihole.profile)) ?? []).contains { $0.pihole == pihole.host }
      if !inFleet { outcome.places.append(await sync(pihole)) }
    }
    for profile in fleets {
      let primary = placed.first { $0.value.profile == profile && $0.value.recipe?.options.primary != nil }
      outcome.places.append(await sync(fleet: profile, primary: primary.map { ($0.key, $0.value) }))
    }
    return outcome
  }

  /// One file applied again as its recipe says.
  func apply(_ entry: Ledger.Entry, at path: String) async -> Place {
    let profile = entry.profile ?? (try? store.profile(nil).name) ?? ""
    var place = Place(target: entry.target, path: path, profile: profile, line: "", failed: true)
    guard let target = Target(name: entry.target) else {
      place.line = "not applied: the ledger names an unknown target “\(entry.target)”"
      return place
    }
    guard var recipe = entry.recipe else {
      place.line =
        "not applied: it was applied before SaneHosts recorded how; apply it once more by hand (`sanehosts apply`), and later changes follow"
      return place
    }
    recipe.options.profile = profile
    if let refusal = limits.refusal(target: target, path: path, recipe: recipe) {
      place.line = refusal
      return place
    }
    let file = ApplyDestination.file(
      for: target, hostsFile: path, output: target.server == nil ? nil : path, data: store.directory)
    let verify = recipe.verify ? ApplyRun.Verify(server: recipe.verifyServer) : nil
    do {
      let outcome = try await ApplyRun(
        store: store, file: file, target: target, options: recipe.options, verify: verify
      ).run()
      let result = outcome.applied.result
      var line = "\(result.names.counted("name")), +\(result.added) −\(result.removed)"
      if let reloaded = result.reloaded { line += ", \(reloaded)" }
      if let failure = outcome.applied.reloadFailure {
        place.line = "\(line); \(failure.localizedDescription)"
        return place
      }
      if let verification = outcome.verification {
        place.line = "\(line); \(verification.summary)"
        place.failed = !verification.passed
        return place
      }
      if let obstacle = outcome.notVerified {
        // Applied; nothing can verify it here, which no retry changes: said, not failed.
        place.line = "\(line); not verified: \(obstacle)"
        place.failed = false
        return place
      }
      if let reason = outcome.notLoaded {
        place.line = "\(line); \(reason)"
        place.failed = verify != nil
        return place
      }
      place.line = line
      place.failed = false
    } catch {
      place.line = "not applied: \(error.localizedDescription)"
    }
    return place
  }

  /// A requested apply: the dashboard's options (no reload; the system resolver's caches flushed after
  /// writing /etc/hosts), verified where it asked.
  func apply(_ request: ApplyRequest) async -> Place {
    var entry = Ledger.Entry(
      sha256: "", sectionSHA256: "", date: request.requestedAt, profile: request.profile, names: 0,
      target: request.target)
    let server = Target(name: request.target)?.server
    let flush = server == nil && Ledger.key(request.path) == "/etc/hosts"
    entry.recipe = Ledger.Recipe(
      options: Applier.Options(profile: request.profile, server: server, flush: flush),
      verify: request.verifyServer != nil || flush,
      verifyServer: request.verifyServer.flatMap { try? ServerAddress(parsing: $0) })
    var place = await apply(entry, at: request.path)
    place.line = "requested: " + place.line
    return place
  }

  /// A Pi-hole `pihole sync` made match a profile, synced again (its lists, rules, gravity where a list
  /// changed), as a fleet syncs its Pi-holes.
  func sync(_ pihole: SyncedPiholes.Entry) async -> Place {
    var sync = FleetSync(store: store, profile: pihole.profile, sessions: sessions, settle: settle)
    sync.removeDropped = true
    let line = await sync.syncPihole(
      Replica(id: 0, profileID: 0, name: pihole.host, feed: .pihole, pihole: pihole.host))
    return Place(
      target: "pihole", path: pihole.host, profile: pihole.profile, line: line, failed: line.hasPrefix("not synced"))
  }

  /// A profile's fleet synced: the primary, the Pi-holes, every replica verified.
  func sync(fleet profile: String, primary: (path: String, entry: Ledger.Entry)?) async -> Place {
    var place = Place(target: "fleet", path: profile, profile: profile, line: "", failed: true)
    var sync = FleetSync(store: store, profile: profile, sessions: sessions, settle: settle)
    // An allow rule that ended must leave the Pi-holes too.
    sync.removeDropped = true
    if let primary, let recipe = primary.entry.recipe {
      if let refusal = limits.refusal(target: .server(.bind), path: primary.path, recipe: recipe) {
        place.line = "not synced: the primary's " + refusal
        return place
      }
      sync.output = primary.path
      if let address = recipe.options.primary?.address { sync.primaryAddress = address }
    } else if let found = FleetPrimary.find(in: store.directory),
      let refusal = limits.refusal(
        target: .server(.bind), path: found.output,
        recipe: Ledger.Recipe(options: Applier.Options(server: .bind), verify: false, verifyServer: nil))
    {
      place.line = "not synced: the primary's " + refusal
      return place
    }
    do {
      let outcome = try await sync.run()
      let verified = outcome.reports.filter { $0.verdict == .verified }.count
      var parts = outcome.primary.map { ["primary: \($0)"] } ?? []
      parts += outcome.piholes.sorted { $0.key < $1.key }.map { "Pi-hole \($0.key): \($0.value)" }
      parts.append("\(verified) of \(outcome.reports.count) replicas verified")
      // The replicas that were not, each with its verdict and why: the line a failure is read from.
      parts += outcome.reports.filter { $0.verdict != .verified }.map { report in
        "\(report.name) \(report.verdict.rawValue): \(report.behind.map { "\($0); " } ?? "")\(report.detail)"
      }
      place.line = parts.joined(separator: "; ")
      place.failed = !outcome.allVerified
    } catch {
      place.line = "not synced: \(error.localizedDescription)"
    }
    return place
  }
}
