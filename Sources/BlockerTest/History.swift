import Blocklists
import Files
import Foundation
import Store

/// Saved blocker test runs: each report kept whole in the store, listed and compared.
public struct History: Sendable {
  /// The store holding the runs.
  public let store: Store

  /// Creates a history over a store.
  public init(store: Store) { self.store = store }

  /// Saves a report; returns it with its id.
  public func save(_ report: TestReport) throws -> TestReport {
    let score = report.score
    let record = try store.saveTestRun(
      TestRunRecord(
        startedAt: report.startedAt, probe: report.probe.rawValue, target: report.target,
        // A leak counts as reachable in the summary columns; the report keeps it apart.
        milliseconds: report.milliseconds, blocked: score.blocked, reachable: score.notBlocked,
        inconclusive: score.inconclusive, report: try JSONCoding.encode(report)))
    var saved = report
    saved.id = record.id
    return saved
  }

  /// The saved runs' summaries, newest first.
  public func list(limit: Int = 50) throws -> [TestRunRecord] { try store.testRuns(limit: limit) }

  /// A saved report.
  public func load(_ id: Int64) throws -> TestReport {
    let record = try store.testRun(id: id)
    var report = try JSONCoding.decode(TestReport.self, from: record.report)
    report.id = record.id
    return report
  }

  /// The newest saved report, if any.
  /// The warning that goes with a saved run's score (see `TestReport.scoreWarning`), read from its report.
  public static func scoreWarning(of record: TestRunRecord) -> String? {
    (try? JSONCoding.decode(TestReport.self, from: record.report))?.scoreWarning
  }

  public func latest() throws -> TestReport? {
    guard let id = try list(limit: 1).first?.id else { return nil }
    return try load(id)
  }
}

/// What changed between two runs.
public struct RunDifference: Sendable, Hashable, Codable {
  /// One domain whose outcome changed.
  public struct Change: Sendable, Hashable, Codable {
    /// The domain.
    public var hostname: String
    /// Its category.
    public var category: String
    /// Before (nil: not in the older run).
    public var before: Outcome?
    /// After (nil: not in the newer run).
    public var after: Outcome?
  }

  /// The older run's id.
  public var from: Int64?
  /// The newer run's id.
  public var to: Int64?
  /// Reachable or inconclusive before, blocked now.
  public var newlyBlocked: [Change]
  /// Blocked or inconclusive before, reachable now.
  public var newlyReachable: [Change]
  /// Any other change (to or from inconclusive, or a domain only in one run).
  public var other: [Change]
  /// The overall scores, before and after.
  public var scores: [Score]

  /// Compares two reports domain by domain.
  public init(from old: TestReport, to new: TestReport) {
    from = old.id
    to = new.id
    var before: [String: DomainResult] = [:]
    for result in old.results { before[result.hostname] = result }
    var blocked: [Change] = []
    var reachable: [Change] = []
    var other: [Change] = []
    var seen = Set<String>()
    for result in new.results {
      seen.insert(result.hostname)
      let previous = before[result.hostname]?.outcome
      guard previous != result.outcome else { continue }
      let change = Change(hostname: result.hostname, category: result.category, before: previous, after: result.outcome)
      switch result.outcome {
      case .blocked where previous != nil: blocked.append(change)
      case .reachable where previous != nil: reachable.append(change)
      default: other.append(change)
      }
    }
    for result in old.results where !seen.contains(result.hostname) {
      other.append(Change(hostname: result.hostname, category: result.category, before: result.outcome, after: nil))
    }
    newlyBlocked = blocked
    newlyReachable = reachable
    self.other = other
    scores = [old.score, new.score]
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { newlyBlocked.isEmpty && newlyReachable.isEmpty && other.isEmpty }
}
