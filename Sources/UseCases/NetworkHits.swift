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
      target ?? logs.first.flatMap { Target(name: $0.kind.rawValue) } ?? .hosts
    }
  }

  private let store: Store

  /// Counts over `store`'s profiles.
  public init(store: Store) {
    self.store = store
  }

  /// The targets a server of `kind` is applied as.
  static func targets(of kind: LogKind) -> [String] {
    switch kind {
    case .dnsmasq: ["dnsmasq", "dnsmasq-hosts"]
    case .unbound: ["unbound"]
    case .bind: ["bind"]
    }
  }

  /// The profile and target `ledger` says were applied to a server of `kind` (`apply --target`), when
  /// every such file holds the same one; nil when none was or they differ.
  static func applied(to kind: LogKind, ledger: Ledger) -> (profile: String, target: Target)? {
    let files = ledger.entries().values.filter { targets(of: kind).contains($0.target) && $0.profile != nil }
    guard let first = files.first, let profile = first.profile, let target = Target(name: first.target),
      files.allSatisfy({ $0.profile == profile && $0.target == first.target })
    else { return nil }
    return (profile, target)
  }

  /// `request` with the profile and target the ledger says were applied to its first log's server, where
  /// the request names neither.
  func resolved(_ request: Request) -> Request {
    var request = request
    guard let kind = request.logs.first?.kind,
      let (profile, target) = Self.applied(to: kind, ledger: Ledger(url: store.directory.ledger))
    else { return request }
    if request.profile == nil { request.profile = profile }
    if request.target == nil { request.target = target }
    return request
  }

  /// A counter over the profile's compiled block set, as `target` applies it.
  func counter(profile: String?, target: Target, since: Date?, byClient: Bool) async throws -> (
    HitCounter, profile: String
  ) {
    let blockSet = try await BlockSet.compile(profile: profile, in: store)
    let attribution = Attribution(compiled: blockSet.list, format: target.server?.format ?? .hosts)
    return (HitCounter(attribution: attribution, since: since, byClient: byClient), blockSet.profile.name)
  }

  /// Reads every log of `request` (and the query log of `pihole`, when given) and reports per list.
  ///
  /// Without `--profile` and `--target`, the profile and target are those `apply` wrote for the first log's
  /// server (the ledger), else the active profile and the server's own target.
  public func report(_ request: Request, pihole: PiholeClient? = nil, now: Date = Date()) async throws -> HitReport {
    guard !request.logs.isEmpty || pihole != nil else { throw TrafficError.noLogs }
    let request = resolved(request)
    let target = pihole != nil && request.target == nil ? .hosts : request.effectiveTarget
    var (counter, profile) = try await counter(
      profile: request.profile, target: target, since: request.since, byClient: request.byClient)
    var sources: [String] = []
    for log in request.logs { sources += try counter.read(log, now: now) }
    if let pihole {
      try await Self.count(pihole, since: request.since, into: &counter)
      let host = await pihole.host
      sources.append("pihole:\(host)")
    }
    return counter.report(
      profile: profile, server: pihole != nil && request.logs.isEmpty ? "pihole" : target.name, sources: sources,
      top: request.top)
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
    let request = resolved(request)
    var (counter, _) = try await counter(
      profile: request.profile, target: request.effectiveTarget, since: nil, byClient: request.byClient)
    var logs: [(follower: LogFollower, parser: any QueryLogParser, clock: LogClock)] = []
    for log in request.logs {
      var parser = log.kind.parser()
      parser.keepsClients = request.byClient
      logs.append((try LogFollower(path: log.path), parser, LogClock()))
    }
    started()
    while true {
      for index in logs.indices {
        var (follower, parser, logClock) = logs[index]
        var findings = LogFindings()
        let path = follower.path
        follower.poll { line, number in
          parser.parse(line, number: number, file: path, clock: &logClock, findings: &findings) { event in
            if let item = counter.feed(event) { emit(item) }
          }
        }
        logs[index] = (follower, parser, logClock)
      }
      try await clock.sleep(for: interval)
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
