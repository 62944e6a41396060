import Foundation
import Locking
import NIOCore
import NIOHTTP1
import NIOPosix

/// A Pi-hole v6 REST API test double, served over real HTTP/1.1 on 127.0.0.1 and a free port.
///
/// It follows `docs/pihole-v6-api.md`, observed quirks of the real daemon included: the wrong-password
/// reply without a `csrf` key, duplicate list addresses answered 201, array posts that return only the
/// last list, the doubled `"type"` key in search results and the raw JSON written after the chunked
/// gravity log. Tests set up state with `addList`/`setContents` and inspect it afterwards. Use
/// `PiholeDouble.with(...)`, which always stops the server.
public final class PiholeDouble: Sendable {
  /// How the double is set up, mirroring the daemon's settings that matter to a client.
  public struct Configuration: Sendable {
    /// The web interface password; nil means no password is set and every endpoint works without a session.
    public var password: String?
    /// When set, two-factor authentication is on and a login must carry this `totp` code.
    public var totp: Int?
    /// `webserver.api.max_sessions`: how many valid sessions may exist at once.
    public var maxSessions: Int
    /// Session lifetime in seconds, renewed by every authenticated request.
    public var validity: Int
    /// `webserver.api.allow_destructive`: when false, gravity answers 403.
    public var destructiveActions: Bool
    /// Password attempts allowed within one second before 429 `rate_limiting`.
    public var loginAttemptsPerSecond: Int
    /// Where time comes from; nil means the wall clock. A `ManualClock` makes rate limits and expiry deterministic.
    public var clock: ManualClock?
    /// How long one `/api/search` takes (about 8 ms on a real FTL). Searches overlapping in this time
    /// crash the double as they crash FTL v6.4.1 (see `crashed`).
    public var searchLatency: Duration
    /// How long the gravity database stays read-only after a gravity run (about 2 s on a real FTL): writes
    /// then fail with `database_error` "attempt to write a readonly database".
    public var readOnlyAfterGravity: Duration
    /// Delay before each line of the gravity log (0: all at once), so a test can interrupt the stream.
    public var gravityLineDelay: Duration

    /// Creates a configuration; the defaults are the daemon's.
    public init(
      password: String?, totp: Int? = nil, maxSessions: Int = 16, validity: Int = 1800,
      destructiveActions: Bool = true, loginAttemptsPerSecond: Int = 3, clock: ManualClock? = nil,
      searchLatency: Duration = .milliseconds(8), readOnlyAfterGravity: Duration = .seconds(2),
      gravityLineDelay: Duration = .zero
    ) {
      self.searchLatency = searchLatency
      self.readOnlyAfterGravity = readOnlyAfterGravity
      self.gravityLineDelay = gravityLineDelay
      self.password = password
      self.totp = totp
      self.maxSessions = maxSessions
      self.validity = validity
      self.destructiveActions = destructiveActions
      self.loginAttemptsPerSecond = loginAttemptsPerSecond
      self.clock = clock
    }
  }

  /// An adlist as the daemon stores it.
  public struct List: Sendable, Hashable {
    /// The list's URL (`https://`, `http://` or `file:///`).
    public var address: String
    /// `"block"` or `"allow"`.
    public var type: String
    /// The comment, or nil.
    public var comment: String?
    /// Whether gravity uses the list.
    public var enabled: Bool
    /// The database id.
    public var id: Int
    /// The group ids it belongs to; `[0]` is the default group.
    public var groups: [Int]
    /// When it was added, seconds since 1970.
    public var dateAdded: Int
    /// When it was last changed, seconds since 1970.
    public var dateModified: Int
    /// When gravity last downloaded it, seconds since 1970; 0 never.
    public var dateUpdated: Int
    /// Domains on the list at the last gravity run.
    public var number: Int
    /// Entries gravity could not use.
    public var invalidDomains: Int
    /// Adblock-style entries (`||name^`).
    public var abpEntries: Int
    /// 0 never downloaded, 1 updated, 2 unchanged, 3 cached copy used, 4 failed.
    public var status: Int
    /// What gravity holds for this list: the entries `/api/search` finds, exactly as written.
    public var domains: [String]
  }

  /// An entry of the domain allow/deny lists.
  public struct DomainRule: Sendable, Hashable {
    /// `"allow"` or `"deny"`.
    public var type: String
    /// `"exact"` or `"regex"`.
    public var kind: String
    /// The domain, or the regular expression.
    public var domain: String
    /// The comment, or nil.
    public var comment: String?
    /// Whether the rule applies.
    public var enabled: Bool
    /// The database id.
    public var id: Int
    /// The group ids it belongs to.
    public var groups: [Int]
    /// When it was added, seconds since 1970.
    public var dateAdded: Int
    /// When it was last changed, seconds since 1970.
    public var dateModified: Int
  }

  struct Session: Sendable {
    var id: Int
    var sid: String
    var csrf: String
    var validUntil: Double
    var loginAt: Double
    var lastActive: Double
  }

  struct State: Sendable {
    /// The query log, oldest first (ids from 0).
    var queryLog: [LoggedQuery] = []
    var lists: [List] = []
    var domains: [DomainRule] = []
    var contents: [String: [String]] = [:]
    var sessions: [Session] = []
    var nextListID = 1
    var nextDomainID = 1
    var nextSessionID = 0
    var loginAttempts: [Double] = []
    var requestLog: [(method: String, path: String)] = []
    var gravityRuns = 0
    var lastGravity = 0
    /// Searches being answered now.
    var searchesInFlight = 0
    /// Set when two searches overlapped: from then on every connection is dropped unanswered.
    var crashed = false
    /// Until when (seconds since 1970) writes fail as on a read-only database.
    var readOnlyUntil = 0.0
    /// User-Agent headers seen on logins, in order.
    var userAgents: [String] = []
    /// Addresses whose download fails at gravity (HTTP 404).
    var failingAddresses: Set<String> = []
    /// Whether blocking is on (`/api/dns/blocking`).
    var blocking = true
    /// The port its DNS server answers on (`with` starts one).
    var dnsPort: UInt16 = 0
  }

  let configuration: Configuration
  let state = Locked(State())
  let started: Double
  private let channel: any Channel

  /// The port the double listens on.
  public let port: Int

  /// `http://127.0.0.1:PORT`.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  private init(configuration: Configuration, channel: any Channel, started: Double) {
    self.configuration = configuration
    self.channel = channel
    self.started = started
    self.port = channel.localAddress?.port ?? 0
  }

  /// Starts a double on 127.0.0.1 and a free port, runs `body` with it and always stops it.
  public static func with<R>(
    _ configuration: Configuration = .init(password: "secret"), _ body: (PiholeDouble) async throws -> R
  ) async throws -> R {
    let double = try await start(configuration)
    do {
      let result = try await FakeDNSServer.with(double.answer) { dns in
        double.state.withLock { $0.dnsPort = dns.port }
        return try await body(double)
      }
      await double.shutdown()
      return result
    } catch {
      await double.shutdown()
      throw error
    }
  }

  private static func start(_ configuration: Configuration) async throws -> PiholeDouble {
    let box = Locked<PiholeDouble?>(nil)
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
          try channel.pipeline.syncOperations.addHandler(PiholeHTTPHandler(double: { box.withLock { $0 } }))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    let double = PiholeDouble(
      configuration: configuration, channel: channel, started: Self.now(configuration.clock))
    box.withLock { $0 = double }
    return double
  }

  private func shutdown() async {
    try? await channel.close()
  }

  static func now(_ clock: ManualClock?) -> Double {
    guard let clock else { return Date().timeIntervalSince1970 }
    let offset = clock.now.offset.components
    return 1_700_000_000 + Double(offset.seconds) + Double(offset.attoseconds) / 1e18
  }

  /// The current time in seconds since 1970 (from the configured clock, if any).
  var now: Double { Self.now(configuration.clock) }

  // MARK: State for tests

  /// Adds an adlist as if it had already been through gravity: `domains` is what gravity holds for it.
  public func addList(
    _ address: String, type: String = "block", comment: String? = nil, enabled: Bool = true, domains: [String] = []
  ) {
    let time = Int(now)
    state.withLock { state in
      state.contents[address] = domains
      state.lists.append(
        List(
          address: address, type: type, comment: comment, enabled: enabled, id: state.nextListID, groups: [0],
          dateAdded: time, dateModified: time, dateUpdated: time, number: domains.count, invalidDomains: 0,
          abpEntries: domains.filter { $0.hasPrefix("||") }.count, status: 2, domains: domains))
      state.nextListID += 1
    }
  }

  /// Sets what a download of `address` yields at the next gravity run, for lists the client adds itself.
  public func setContents(_ domains: [String], forAddress address: String) {
    state.withLock { $0.contents[address] = domains }
  }

  /// The adlists, in id order.
  public var lists: [List] { state.withLock { $0.lists } }

  /// The domain allow/deny entries, in id order.
  public var domainRules: [DomainRule] { state.withLock { $0.domains } }

  /// How many sessions are valid right now.
  public var activeSessions: Int {
    let time = now
    return state.withLock { $0.sessions.filter { $0.validUntil > time }.count }
  }

  /// Every request received, in order; `path` is the request target without its query.
  public var requestLog: [(method: String, path: String)] { state.withLock { $0.requestLog } }

  /// How many times gravity was run through the API.
  public var gravityRuns: Int { state.withLock { $0.gravityRuns } }

  /// Ends the lifetime of every session, as if `validity` seconds had passed without a request.
  public func expireAllSessions() {
    let time = now
    state.withLock { state in
      for index in state.sessions.indices { state.sessions[index].validUntil = time }
    }
  }

  /// Whether concurrent searches crashed the double, as they crash FTL v6.4.1.
  public var crashed: Bool { state.withLock { $0.crashed } }

  /// The most searches that were in flight at once is over one exactly when `crashed`.
  func beginSearch() {
    state.withLock { state in
      if state.searchesInFlight > 0 { state.crashed = true }
      state.searchesInFlight += 1
    }
  }

  func endSearch() { state.withLock { $0.searchesInFlight -= 1 } }

  /// The User-Agent of every login, in order (empty when none was sent).
  public var userAgents: [String] { state.withLock { $0.userAgents } }

  /// Makes a download of `address` fail at gravity, as a URL answering 404 does: the list is marked
  /// failed and keeps no domains.
  public func failDownload(of address: String) {
    state.withLock { _ = $0.failingAddresses.insert(address) }
  }

  /// Forgets recent password attempts, lifting the login rate limit.
  public func resetLoginRateLimit() {
    state.withLock { $0.loginAttempts = [] }
  }
}
