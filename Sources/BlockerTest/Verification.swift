import DNS
import Foundation

/// Whether names just applied are really blocked: a seeded sample of them, and the control domains,
/// probed through the target that should now block them (`sanehosts apply --verify`).
public struct Verification: Sendable, Hashable, Codable {
  /// One sampled name that is not blocked (yet), and the likely reason.
  public struct Miss: Sendable, Hashable, Codable {
    /// The name.
    public var name: String
    /// What the probe found.
    public var outcome: Outcome
    /// The probe's reason (the address, `A: timeout; AAAA: REFUSED`).
    public var reason: String
    /// The likely cause, as data (a front end phrases what to do in its own terms).
    public var kind: Cause
    /// The likely cause, with what to do on the command line.
    public var cause: String
  }

  /// Why a sampled name is likely not blocked.
  public enum Cause: String, Sendable, Hashable, Codable {
    /// The target gave no usable answer.
    case noAnswer
    /// The system resolver does not read the file written, or a cache answers before it (every name missed).
    case resolverSkipsFile
    /// A caching resolver on this machine still holds the old answer.
    case systemCache
    /// The server was not reloaded after the write.
    case notReloaded
    /// The server's cache holds the old answer (its TTL is in the miss's reason).
    case serverCache
    /// The server does not load the file written (every name missed).
    case notLoaded
    /// The server answers the name from elsewhere: its allow list, a local zone, another drop-in.
    case answeredElsewhere
    /// A name the apply allowed (an exception it wrote) is still blocked.
    case stillBlocked
    /// A name the apply took out of the file is still answered as blocked: a sinkhole address, or (from a
    /// DNS server) no address without the upstream's SOA.
    case removedStillBlocked
  }

  /// One control domain's result.
  public struct Control: Sendable, Hashable, Codable {
    /// The domain.
    public var name: String
    /// What the probe found.
    public var outcome: Outcome
    /// The probe's reason.
    public var reason: String
  }

  /// What was asked: `system resolver` or the server's `IP:port`.
  public var target: String
  /// Names probed.
  public var sampled: Int
  /// Of those, how many are blocked.
  public var blocked: Int
  /// The sampled names not blocked, in sample order.
  public var notBlocked: [Miss]
  /// Names the apply allowed under a blocked parent (exceptions it wrote), probed.
  public var allowed: Int
  /// Of those, the ones still blocked; and removed names still answered with a sinkhole address.
  public var stillBlocked: [Miss]
  /// Names the apply took out of the file, probed.
  public var removed: Int
  /// Of those, the ones the system resolver answered with no address: blocked still, or names that do not
  /// exist upstream; it does not say which, so they are said, not failed.
  public var unconfirmed: [String]
  /// Removed and allowed names a DNS server answered with no address and the SOA of a zone above them:
  /// the upstream's own "no such name", so they are let through (and counted so).
  public var goneUpstream: [String]
  /// The control domains.
  public var controls: [Control]
  /// How long it took, in milliseconds.
  public var milliseconds: Int

  /// Whether every sampled name is blocked and no control domain is.
  public let passed: Bool
  /// One line: `verified: 50/50 sampled names blocked, controls reachable`, or what failed.
  public let summary: String

  /// The summary line for these results.
  static func summary(
    passed: Bool, sampled: Int, blocked: Int, allowed: Int = 0, stillBlocked: Int = 0, removed: Int = 0,
    removedBlocked: Int = 0, unconfirmed: Int = 0, goneUpstream: Int = 0, controls: [Control]
  ) -> String {
    let reachable = controls.filter { $0.outcome == .reachable }.count
    let controlText: String
    if controls.isEmpty {
      controlText = "no control domain probed"
    } else if let blockedControl = controls.first(where: { $0.outcome == .blocked }) {
      controlText =
        "control domain \(blockedControl.name) is blocked (\(blockedControl.reason)): the target over-blocks"
    } else if reachable == controls.count {
      controlText = "controls reachable"
    } else {
      controlText = "\(controls.count - reachable) of \(controls.count) controls did not resolve (offline?)"
    }
    let head = passed ? "verified" : "verification failed"
    let allowedText =
      allowed > 0 ? "\(allowed - (stillBlocked - removedBlocked))/\(allowed) allowed names let through, " : ""
    var removedText = ""
    if removed > 0 {
      removedText = "\(removed - removedBlocked - unconfirmed)/\(removed) removed names unblocked"
      removedText += unconfirmed > 0 ? " (\(unconfirmed) answer no address: gone upstream, or still blocked), " : ", "
    }
    if goneUpstream > 0 {
      removedText += "\(goneUpstream) of them gone upstream (its own NXDOMAIN or NODATA), "
    }
    return "\(head): \(blocked)/\(sampled) sampled names blocked, \(allowedText)\(removedText)\(controlText)"
  }

  /// Creates a verification (normally made by `run`).
  public init(
    target: String, sampled: Int, blocked: Int, notBlocked: [Miss], allowed: Int = 0, stillBlocked: [Miss] = [],
    removed: Int = 0, unconfirmed: [String] = [], goneUpstream: [String] = [], controls: [Control],
    milliseconds: Int
  ) {
    self.target = target
    self.sampled = sampled
    self.blocked = blocked
    self.notBlocked = notBlocked
    self.allowed = allowed
    self.stillBlocked = stillBlocked
    self.removed = removed
    self.unconfirmed = unconfirmed
    self.goneUpstream = goneUpstream
    self.controls = controls
    self.milliseconds = milliseconds
    passed = blocked == sampled && stillBlocked.isEmpty && !controls.contains { $0.outcome == .blocked }
    summary = Self.summary(
      passed: passed, sampled: sampled, blocked: blocked, allowed: allowed, stillBlocked: stillBlocked.count,
      removed: removed, removedBlocked: stillBlocked.filter { $0.kind == .removedStillBlocked }.count,
      unconfirmed: unconfirmed.count, goneUpstream: goneUpstream.count, controls: controls)
  }

  /// What the apply did, so a miss can be explained.
  public struct Context: Sendable, Hashable {
    /// Whether the server was told to reload (always true for the hosts file, read on each lookup).
    public var reloaded: Bool
    /// Whether the target is a DNS server (else the hosts file through the system resolver).
    public var server: Bool
    /// The file written.
    public var path: String

    /// Creates a context.
    public init(reloaded: Bool, server: Bool, path: String) {
      self.reloaded = reloaded
      self.server = server
      self.path = path
    }
  }

  /// The names to probe: a sample of `count` names of `names`, the same for the same seed.
  public static func sample(_ names: [String], count: Int, seed: UInt64) -> [String] {
    Registry.sample(names, count: count, seed: seed)
  }

  /// The names to probe after an apply: every name it `added` that is among `names` (a seeded sample of
  /// them past `count`), then a seeded sample of the other names, `count` in all. A reload that did not
  /// happen shows in the names just added; a random sample of a large profile would rarely hold them.
  public static func sample(_ names: [String], added: [String], count: Int, seed: UInt64) -> [String] {
    let applied = Set(names)
    let changed = added.filter(applied.contains)
    if changed.count >= count { return sample(changed, count: count, seed: seed) }
    let changedSet = Set(changed)
    return changed + sample(names.filter { !changedSet.contains($0) }, count: count - changed.count, seed: seed)
  }

  /// Probes `names` and the registry's control domains with `lookup` (at most `concurrency` at a time) and
  /// explains each name that is not blocked.
  ///
  /// `lookup` returns the verdict and, for a DNS answer, the smallest TTL of its records (a hint that a
  /// cache may still hold an old answer). With `settle`, names not yet as applied are asked again every
  /// 100 ms for up to that long before they count (a server that loads its files in the background
  /// after a reload, as BIND does).
  public static func run<C: Clock>(
    names: [String], allowed: [String] = [], removed: [String] = [],
    controls: [String] = Registry.builtIn.controls.map(\.hostname),
    target: String,
    context: Context, concurrency: Int = 32, timeout: Duration = .seconds(3), settle: Duration = .zero,
    clock: C = ContinuousClock(),
    lookup: @escaping @Sendable (String) async -> (verdict: Verdict, ttl: UInt32?)
  ) async -> Verification where C.Duration == Duration {
    let start = ContinuousClock.now
    let bounded = Self.bounded(lookup, timeout: timeout, clock: clock)
    let all = names + allowed + removed + controls
    var probed = await probeAll(all, concurrency: concurrency, bounded)
    // Whether a name's answer is as applied: a name blocked, an allowed or removed one let through.
    func settled(_ index: Int) -> Bool {
      let verdict = probed[index].verdict
      if index < names.count { return verdict.outcome == .blocked }
      if index >= names.count + allowed.count + removed.count { return true }
      return verdict.outcome != .blocked || (verdict.addresses.isEmpty && verdict.upstreamZone != nil)
    }
    let settleStart = clock.now
    while settle > .zero {
      let pending = all.indices.filter { !settled($0) }
      guard !pending.isEmpty, settleStart.duration(to: clock.now) < settle else { break }
      do { try await clock.sleep(for: .milliseconds(100)) } catch { break }
      let again = await probeAll(pending.map { all[$0] }, concurrency: concurrency, bounded)
      for (index, result) in zip(pending, again) { probed[index] = result }
    }
    let sampled = Array(probed.prefix(names.count))
    let missed = sampled.enumerated().filter { $0.element.verdict.outcome != .blocked }
    let allMissed = !names.isEmpty && missed.count == names.count
    // A name, its result and the cause: the line that says why it is not as applied.
    func miss(_ name: String, _ result: (verdict: Verdict, ttl: UInt32?), _ kind: Cause) -> Miss {
      Miss(
        name: name, outcome: result.verdict.outcome, reason: result.verdict.reason, kind: kind,
        cause: text(kind, verdict: result.verdict, ttl: result.ttl, context: context))
    }
    let notBlocked = missed.map { index, result in
      miss(names[index], result, cause(result.verdict, ttl: result.ttl, everyName: allMissed, context: context))
    }
    // A name answered with no address but the upstream's SOA does not exist there: it is let through.
    var goneUpstream: [String] = []
    var stillBlocked: [Miss] = []
    for (name, result) in zip(allowed, probed.dropFirst(names.count).prefix(allowed.count))
    where result.verdict.outcome == .blocked {
      if result.verdict.upstreamZone != nil {
        goneUpstream.append(name)
      } else {
        stillBlocked.append(miss(name, result, .stillBlocked))
      }
    }
    // A removed name still answered with a sinkhole address, or by a server with no address and without
    // the upstream's SOA, is still blocked; the system resolver's "no address" cannot be told from a name
    // gone upstream.
    var unconfirmed: [String] = []
    var removedBlocked: [Miss] = []
    for (name, result) in zip(removed, probed.dropFirst(names.count + allowed.count).prefix(removed.count))
    where result.verdict.outcome == .blocked {
      if result.verdict.addresses.isEmpty && result.verdict.upstreamZone != nil {
        goneUpstream.append(name)
      } else if result.verdict.addresses.isEmpty && !context.server {
        unconfirmed.append(name)
      } else {
        removedBlocked.append(miss(name, result, .removedStillBlocked))
      }
    }
    let controlResults = zip(controls, probed.suffix(controls.count)).map { name, result in
      Control(name: name, outcome: result.verdict.outcome, reason: result.verdict.reason)
    }
    let elapsed = start.duration(to: .now)
    return Verification(
      target: target, sampled: names.count, blocked: names.count - missed.count, notBlocked: notBlocked,
      allowed: allowed.count, stillBlocked: stillBlocked + removedBlocked, removed: removed.count,
      unconfirmed: unconfirmed, goneUpstream: goneUpstream, controls: controlResults,
      milliseconds: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
  }

  /// `lookup` bounded by `timeout` (the system resolver has no timeout of its own): inconclusive after it.
  static func bounded<C: Clock>(
    _ lookup: @escaping @Sendable (String) async -> (verdict: Verdict, ttl: UInt32?), timeout: Duration, clock: C
  ) -> @Sendable (String) async -> (verdict: Verdict, ttl: UInt32?) where C.Duration == Duration {
    { name in
      await withTaskGroup(of: (verdict: Verdict, ttl: UInt32?)?.self) { group in
        group.addTask { await lookup(name) }
        group.addTask {
          do {
            try await clock.sleep(for: timeout)
          } catch {
            return nil
          }
          return (Verdict(.inconclusive, "timeout"), nil)
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? (Verdict(.inconclusive, "cancelled"), nil)
      }
    }
  }

  /// Each name's result from `bounded`, at most `concurrency` at a time, in the names' order.
  static func probeAll(
    _ all: [String], concurrency: Int, _ bounded: @escaping @Sendable (String) async -> (verdict: Verdict, ttl: UInt32?)
  ) async -> [(verdict: Verdict, ttl: UInt32?)] {
    var results = [(verdict: Verdict, ttl: UInt32?)?](repeating: nil, count: all.count)
    await withTaskGroup(of: (Int, (verdict: Verdict, ttl: UInt32?)).self) { group in
      var next = 0
      while next < all.count && next < concurrency {
        let index = next
        group.addTask { (index, await bounded(all[index])) }
        next += 1
      }
      while let (index, result) = await group.next() {
        results[index] = result
        if next < all.count {
          let index = next
          group.addTask { (index, await bounded(all[index])) }
          next += 1
        }
      }
    }
    return results.map { $0 ?? (Verdict(.inconclusive, "not probed"), nil) }
  }

  /// The likely reason a name is not blocked.
  static func cause(_ verdict: Verdict, ttl: UInt32?, everyName: Bool, context: Context) -> Cause {
    if verdict.outcome == .inconclusive { return .noAnswer }
    if !context.server { return everyName ? .resolverSkipsFile : .systemCache }
    if !context.reloaded { return .notReloaded }
    if let ttl, ttl > 0 { return .serverCache }
    return everyName ? .notLoaded : .answeredElsewhere
  }

  /// The cause with what to do about it on the command line.
  static func text(_ cause: Cause, verdict: Verdict, ttl: UInt32?, context: Context) -> String {
    switch cause {
    case .noAnswer:
      "no usable answer (\(verdict.reason)): check that the target answers, then verify again"
    case .resolverSkipsFile:
      "the system resolver does not read \(context.path) (it reads /etc/hosts), or a caching resolver (systemd-resolved, nscd) answers first: apply with --flush"
    case .systemCache:
      "a cached answer (systemd-resolved, nscd): apply with --flush, or wait for it to expire"
    case .notReloaded:
      "the server was not reloaded: apply with --reload (or reload it yourself), then verify again"
    case .serverCache:
      "a cached answer (TTL \(ttl ?? 0) s): wait \(ttl ?? 0) s or clear the server's cache, then verify again"
    case .notLoaded:
      "the server does not load \(context.path): add the configuration line `apply` printed on its first write, and check the server's log"
    case .answeredElsewhere:
      "the server answers it from elsewhere: its own allow list, a more specific local zone or record, or another drop-in"
    case .removedStillBlocked:
      context.reloaded
        ? "still answered as blocked: another list, rule or drop-in of the server blocks it, or a cached answer"
        : "still answered as blocked: the server was not reloaded: apply with --reload, then verify again"
    case .stillBlocked:
      context.reloaded
        ? "still blocked: another list, rule or drop-in of the server blocks it"
        : "still blocked: the server was not reloaded: apply with --reload (or reload it yourself), then verify again"
    }
  }
}

extension Verification {
  /// Verifies `names` (already sampled) through the target: the DNS server `server` for a drop-in, the
  /// system resolver when nil (the hosts file), each answer within `timeout`.
  /// `allowed` are names the apply let through under a blocked parent (its exceptions): each must not be
  /// blocked.
  public static func verify(
    _ names: [String], allowed: [String] = [], removed: [String] = [], through server: ServerAddress?,
    context: Context, timeout: Duration = .seconds(2), settle: Duration = .zero
  ) async -> Verification {
    guard let server else {
      let probe = SystemProbe()
      return await run(
        names: names, allowed: allowed, removed: removed, target: "system resolver", context: context,
        timeout: timeout
      ) { name in
        (await probe.probe(name), nil)
      }
    }
    let probe = DNSProbe(resolver: Resolver(server: server), timeout: timeout)
    return await run(
      names: names, allowed: allowed, removed: removed, target: server.description, context: context,
      timeout: timeout + .seconds(1), settle: settle
    ) {
      name in await probe.verify(name)
    }
  }
}

extension DNSProbe {
  /// The verdict and the smallest TTL of the answers, for `Verification`.
  public func verify(_ hostname: String) async -> (verdict: Verdict, ttl: UInt32?) {
    let lookup = await resolver.lookup(hostname, timeout: timeout)
    // An authoritative answer (AA) comes from the zone itself, never from a cache: no TTL to blame.
    let cached = [lookup.a, lookup.aaaa].compactMap { try? $0.get() }.filter { !$0.flags.authoritative }
    let ttls = cached.flatMap { $0.answers.map(\.ttl) }
    return (verdict(lookup), ttls.min())
  }
}
