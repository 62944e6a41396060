import Apply
import Blocklists
import Foundation
import Pihole
import Store
import Traffic

/// Which lists of a profile block the network's queries (`sanehosts hits`, the dashboard's Traffic
/// page): the servers' query logs read against the profile's compiled block set.
public struct NetworkHits: Sendable {
  /// What to count.
  public struct Request: Sendable {
    /// The query logs (each with its rotated copies).
    public var logs: [LogSource]
    /// Leave out queries before this time.
    public var since: Date?
    /// The profile (nil: the active one).
    public var profile: String?
    /// How the profile was applied to the server (nil: the log's kind's own target: dnsmasq, unbound, bind).
    public var target: Target?
    /// Count per client (addresses are otherwise neither printed nor kept).
    public var byClient = false
    /// How many names the top lists hold.
    public var top = 20

    /// A request for `logs`.
    public init(
      logs: [LogSource], since: Date? = nil, profile: String? = nil, target: Target? = nil, byClient: Bool = false,
      top: Int = 20
    ) {
      self.logs = logs
      self.since = since
      self.profile = profile
      self.target = target
      self.byClient = byClient
      self.top = top
    }

    /// The target whose rules decide what "blocked" means: the one asked, else the first log's server's.
    public var effectiveTarget: Target {
      target ?? logs.first.flatMap { ServerTarget.writing($0.kind).first.map(Target.server) } ?? .hosts
    }
  }

  private let store: Store

  /// Counts over `store`'s profiles.
  public init(store: Store) {
    self.store = store
  }

  /// The profile and target `ledger` says were applied to a server of `kind` (`apply --target`), when
  /// every such file holds the same one, with the file last written; nil when none was or they differ.
  static func applied(to kind: QueryLogFormat, ledger: Ledger) -> (
    profile: String, target: Target, path: String, entry: Ledger.Entry
  )? {
    let targets = ServerTarget.writing(kind).map(\.rawValue)
    let files = ledger.entries().filter { targets.contains($0.value.target) && $0.value.profile != nil }
    guard let (path, last) = files.max(by: { $0.value.date < $1.value.date }), let profile = last.profile,
      let target = Target(name: last.target),
      files.values.allSatisfy({ $0.profile == profile && $0.target == last.target })
    else { return nil }
    return (profile, target, path, last)
  }

  /// `request` with the profile and target the ledger says were applied to its first log's server, where
  /// the request names neither; and that file's record, when it is the one counted against.
  func resolved(_ request: Request) -> (Request, applied: (path: String, entry: Ledger.Entry)?) {
    var request = request
    guard let kind = request.logs.first?.kind,
      let (profile, target, path, entry) = Self.applied(to: kind, ledger: Ledger(url: store.directory.ledger))
    else { return (request, nil) }
    if request.profile == nil { request.profile = profile }
    if request.target == nil { request.target = target }
    let same = request.target == target && request.profile?.lowercased() == profile.lowercased()
    return (request, same ? (path, entry) : nil)
  }

  /// The states a server ran, from the ledger's record of its file: each state's rules from when it ran
  /// (for a drop-in, from when its server confirmed loading it; a state never confirmed is not counted as
  /// running once any was), the first from the start; consecutive states with the same rules are one.
  /// At most the last `limit` (each is compiled).
  static func timeline(of entry: Ledger.Entry, target: Target, limit: Int = 4) -> [(from: Date?, rules: Ledger.Rules)] {
    let history = entry.history ?? []
    let confirmed = history.contains { $0.loadedDate != nil }
    var timeline: [(from: Date?, rules: Ledger.Rules)] = []
    for state in history {
      guard let rules = state.rules else { continue }
      let from: Date? = state.loadedDate ?? (target == .hosts || !confirmed ? state.date : nil)
      guard let from else { continue }
      if timeline.last?.rules == rules { continue }
      timeline.append((from, rules))
    }
    timeline = Array(timeline.suffix(limit))
    if !timeline.isEmpty { timeline[0].from = nil }
    return timeline
  }

  /// A counter over the profile's copies as `target` applies them: each query against the rules the
  /// server ran at its time (the ledger's record of the file applied to it), else the profile's rules of
  /// now; with the profile of now beside it when its rules differ from what the server runs last.
  func counter(
    profile: String?, target: Target, applied: (path: String, entry: Ledger.Entry)?, since: Date?, byClient: Bool
  ) async throws -> (HitCounter, profile: String, applyCommand: String?) {
    let plan = try ProfileList.plan(profile: profile, in: store)
    let format = target.server?.format ?? .hosts
    let timeline = applied.map { Self.timeline(of: $0.entry, target: target) } ?? []
    guard let applied, let latest = timeline.last else {
      let blockSet = try await plan.load(from: store)
      let attribution = Attribution(compiled: blockSet.list, format: format)
      var counter = HitCounter(attribution: attribution, since: since, byClient: byClient)
      counter.overrides = try await overrides(plan, format: format)
      return (counter, plan.profile.name, nil)
    }
    var states: [(from: Date?, attribution: Attribution)] = []
    for state in timeline {
      let list = try await plan.load(from: store, rules: state.rules).list
      states.append((state.from, Attribution(compiled: list, format: format)))
    }
    var current: Attribution?
    if latest.rules != plan.appliedRules {
      current = Attribution(compiled: try await plan.load(from: store).list, format: format)
    }
    var counter = HitCounter(timeline: states, current: current, since: since, byClient: byClient)
    counter.overrides = try await overrides(plan, format: format)
    let command =
      target == .hosts
      ? "sanehosts apply --hosts-file \(applied.path)"
      : "sanehosts apply --target \(target.name) --output \(applied.path) --reload"
    return (counter, plan.profile.name, command)
  }

  /// The profile's block set without its allow rules, and the rules, for counting per list what an allow
  /// rule let through; nil when the profile has no allow rule.
  func overrides(_ plan: ProfileList.Plan, format: OutputFormat) async throws -> (
    withoutAllowRules: Attribution, allowRules: RuleSet
  )? {
    guard !plan.rules.allow.isEmpty else { return nil }
    let list = try await plan.load(from: store, rules: Ledger.Rules(allow: [], deny: plan.appliedRules.deny)).list
    return (Attribution(compiled: list, format: format), plan.rules)
  }

  /// Reads every log of `request` (and the query log of `pihole`, when given) and reports per list.
  ///
  /// Without `--profile` and `--target`, the profile and target are those `apply` wrote for the first log's
  /// server (the ledger), else the active profile and the server's own target.
  public func report(_ request: Request, pihole: PiholeClient? = nil, now: Date = Date()) async throws -> HitReport {
    guard !request.logs.isEmpty || pihole != nil else { throw TrafficError.noLogs }
    let (request, applied) = resolved(request)
    let target = pihole != nil && request.target == nil ? .hosts : request.effectiveTarget
    var (counter, profile, command) = try await counter(
      profile: request.profile, target: target, applied: applied, since: request.since, byClient: request.byClient)
    var sources: [String] = []
    for log in request.logs { sources += try counter.read(log, since: request.since, now: now) }
    if let pihole {
      try await Self.count(pihole, since: request.since, into: &counter)
      let host = await pihole.host
      sources.append("pihole:\(host)")
    }
    var report = counter.report(
      profile: profile, server: pihole != nil && request.logs.isEmpty ? "pihole" : target.name, sources: sources,
      top: request.top)
    report.applyCommand = command
    if !report.serverTellsBlocks { report.blindReason = request.logs.first?.kind.blindReason }
    return report
  }

  /// Counts a Pi-hole's query log since `since` (its whole in-memory log, 24 h by default, without):
  /// each query, and a block for each FTL counts as blocked. Names hidden by the Pi-hole's privacy level
  /// are counted as skipped.
  static func count(_ pihole: PiholeClient, since: Date?, into counter: inout HitCounter) async throws {
    try await pihole.queries(from: since) { page in
      for query in page {
        counter.findings.lines += 1
        guard query.domain != "hidden" else {
          Array(query.domain.utf8).withUnsafeBufferPointer {
            counter.findings.skip("hidden by the Pi-hole's privacy level", file: "pihole", line: query.id, text: $0)
          }
          continue
        }
        let client = counter.byClient ? query.client : nil
        counter.count(.query(time: query.time, name: query.domain, type: query.type, client: client))
        if query.isBlocked { counter.count(.blocked(time: query.time, name: query.domain, client: client)) }
      }
    }
  }

  /// Follows every log of `request` from its end, calling `emit` with each query the profile blocks (and
  /// each block of the server's that the profile does not explain) as the lines arrive; the files are read
  /// again every `interval` on `clock`, until the task is cancelled.
  public func follow<C: Clock<Duration>>(
    _ request: Request, interval: Duration = .milliseconds(100), clock: C = ContinuousClock(),
    started: () -> Void = {}, emit: (FeedItem) -> Void
  ) async throws {
    guard !request.logs.isEmpty else { throw TrafficError.noLogs }
    let (request, applied) = resolved(request)
    var (counter, _, _) = try await counter(
      profile: request.profile, target: request.effectiveTarget, applied: applied, since: nil,
      byClient: request.byClient)
    var logs: [(follower: Follower, parser: any QueryLogParser, clock: LogClock)] = []
    for log in request.logs {
      var parser = log.kind.parser()
      parser.keepsClients = request.byClient
      let follower: Follower =
        log.isJournal ? .journal(try JournalFollower(log)) : .file(try LogFollower(path: log.path))
      logs.append((follower, parser, LogClock()))
    }
    started()
    while true {
      for index in logs.indices {
        var (follower, parser, logClock) = logs[index]
        var findings = LogFindings()
        try follower.poll { line, number, name in
          parser.parse(line, number: number, file: name, clock: &logClock, findings: &findings) { event in
            if let item = counter.feed(event) { emit(item) }
          }
        }
        logs[index] = (follower, parser, logClock)
      }
      try await clock.sleep(for: interval)
    }
  }

  /// A log followed: a file, as `tail -F` does, or a server's entries in the journal.
  enum Follower {
    case file(LogFollower)
    case journal(JournalFollower)

    /// Hands each new line to `body` with its number and the log's name.
    mutating func poll(_ body: (UnsafeBufferPointer<UInt8>, Int, String) -> Void) throws(TrafficError) {
      switch self {
      case .file(var follower):
        let path = follower.path
        follower.poll { body($0, $1, path) }
        self = .file(follower)
      case .journal(var follower):
        let name = follower.source.description
        try follower.poll { body($0, $1, name) }
        self = .journal(follower)
      }
    }
  }

  /// The time `--since` names: a duration back from `now` (`90m`, `24h`, `7d`, `2w`) or a date
  /// (`2026-11-20`, `2026-11-20T08:00`, local time, or with `Z` or an offset).
  public static func since(_ text: String, now: Date = Date()) throws(TrafficError) -> Date {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
    if let unit = text.last, let seconds = units[unit], let count = Double(text.dropLast()), count >= 0 {
      return now.addingTimeInterval(-count * seconds)
    }
    var clock = LogClock(now: now)
    // A date alone is its midnight; a time without seconds has :00.
    var bytes = Array(text.utf8)
    if bytes.count == 10 { bytes += Array("T00:00:00".utf8) }
    if bytes.count >= 16, bytes[13] == UInt8(ascii: ":"), bytes.count == 16 || bytes[16] != UInt8(ascii: ":") {
      bytes.insert(contentsOf: Array(":00".utf8), at: 16)
    }
    let parsed = bytes.withUnsafeBufferPointer { clock.iso($0) }
    guard let (date, end) = parsed, end == bytes.count else { throw .badSince(text) }
    return date
  }
}
