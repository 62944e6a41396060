import Apply
import BlockerTest
import Files
import Foundation
import Store
import Traffic

/// The numbers `/metrics` exposes, read at once: per list, per applied file, per replica, the last
/// blocker test and the last update. The dashboard renders them in Prometheus' text format.
public struct MetricsReport: Sendable {
  /// One list (a source of any profile).
  public struct List: Sendable, Hashable {
    /// The source's key (the `list` label).
    public var key: String
    /// Unique names in its copy in use (nil: no copy yet).
    public var names: Int?
    /// When its copy was last fetched or checked successfully.
    public var lastSuccess: Date?
    /// Whether its last update attempt succeeded (nil: never tried).
    public var lastUpdateSucceeded: Bool?
    /// Queries in the configured logs that the active profile blocks through it (nil: no log configured).
    public var blockedQueries: Int?
    /// Distinct names asked that it blocks.
    public var uniqueBlocked: Int?

    /// A list's numbers.
    public init(
      key: String, names: Int?, lastSuccess: Date?, lastUpdateSucceeded: Bool?, blockedQueries: Int?,
      uniqueBlocked: Int?
    ) {
      self.key = key
      self.names = names
      self.lastSuccess = lastSuccess
      self.lastUpdateSucceeded = lastUpdateSucceeded
      self.blockedQueries = blockedQueries
      self.uniqueBlocked = uniqueBlocked
    }
  }

  /// One file SaneHosts applied (the ledger's entries).
  public struct Target: Sendable, Hashable {
    /// The file.
    public var path: String
    /// `hosts` or a server target's name.
    public var target: String
    /// The profile it holds (nil: disabled).
    public var profile: String?
    /// Names written.
    public var names: Int
    /// When it was written.
    public var appliedAt: Date
    /// When the server last confirmed loading it (a reload or a passing verification).
    public var verifiedAt: Date?
    /// The fleet primary's zone serial, where this is the primary.
    public var serial: UInt32?
    /// How long the last apply took, in seconds.
    public var applySeconds: Double?

    /// A file's numbers.
    public init(
      path: String, target: String, profile: String?, names: Int, appliedAt: Date, verifiedAt: Date?,
      serial: UInt32?, applySeconds: Double?
    ) {
      self.path = path
      self.target = target
      self.profile = profile
      self.names = names
      self.appliedAt = appliedAt
      self.verifiedAt = verifiedAt
      self.serial = serial
      self.applySeconds = applySeconds
    }
  }

  /// One replica of a fleet.
  public struct Replica: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// Its profile.
    public var profile: String
    /// When it was last verified.
    public var verifiedAt: Date?
    /// The serial it answered then.
    public var serial: UInt32?

    /// A replica's numbers.
    public init(name: String, profile: String, verifiedAt: Date?, serial: UInt32?) {
      self.name = name
      self.profile = profile
      self.verifiedAt = verifiedAt
      self.serial = serial
    }
  }

  /// Every list.
  public var lists: [List] = []
  /// Every applied file.
  public var targets: [Target] = []
  /// Every replica.
  public var replicas: [Replica] = []
  /// The last blocker test's score in percent of conclusive outcomes, and when it ran.
  public var testScore: (percent: Double, at: Date)?
  /// The last update of the active profile: how long it took and when it ended.
  public var lastUpdate: (seconds: Double, at: Date, succeeded: Bool)?
  /// The active profile's allow and deny rules, and the allow rules that end (`allow add --for`).
  public var rules: (allow: Int, deny: Int, ending: Int) = (0, 0, 0)
  /// Whether query logs are configured (`serve --log`).
  public var logsConfigured = false
  /// Why the logs' counts are missing, when they could not be read.
  public var logsProblem: String?

  /// An empty report.
  public init() {}

  /// Reads the store, the ledger and (when `logs` are given) the query logs against the active profile.
  public static func read(store: Store, logs: [LogSource]) async throws(StoreError) -> MetricsReport {
    var report = MetricsReport()
    var hits: [String: HitReport.ListHits] = [:]
    report.logsConfigured = !logs.isEmpty
    if !logs.isEmpty {
      do {
        let counted = try await NetworkHits(store: store).report(NetworkHits.Request(logs: logs, since: nil))
        hits = Dictionary(counted.lists.map { ($0.list, $0) }, uniquingKeysWith: { first, _ in first })
      } catch {
        report.logsProblem = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
      }
    }
    let counting = !logs.isEmpty && report.logsProblem == nil
    report.lists = try store.allSources().map { source in
      List(
        key: source.key, names: source.unique, lastSuccess: source.lastSuccess,
        lastUpdateSucceeded: source.status == .new ? nil : source.status != .failed,
        blockedQueries: counting ? hits[source.key]?.queries ?? 0 : nil,
        uniqueBlocked: counting ? hits[source.key]?.names ?? 0 : nil)
    }
    report.targets = Ledger(url: store.directory.ledger).entries().sorted { $0.key < $1.key }.map { path, entry in
      Target(
        path: path, target: entry.target, profile: entry.profile, names: entry.names, appliedAt: entry.date,
        verifiedAt: entry.loadedDate, serial: entry.primarySerial, applySeconds: entry.recipe?.seconds)
    }
    for profile in try store.profiles() {
      report.replicas += try store.replicas(in: profile.name).map {
        Replica(name: $0.name, profile: profile.name, verifiedAt: $0.verifiedAt, serial: $0.verifiedSerial)
      }
    }
    if let run = try store.testRuns(limit: 1).first,
      let percent = (try? JSONCoding.decode(TestReport.self, from: run.report))?.score.percent
    {
      report.testScore = (percent, run.startedAt)
    }
    let rules = try store.rules()
    report.rules = (
      rules.filter { $0.action == .allow }.count, rules.filter { $0.action == .deny }.count,
      rules.filter { $0.expiresAt != nil }.count
    )
    if let run = try store.runs(limit: 1).first {
      report.lastUpdate = (run.finishedAt.timeIntervalSince(run.startedAt), run.finishedAt, run.outcome != .failed)
    }
    return report
  }
}
