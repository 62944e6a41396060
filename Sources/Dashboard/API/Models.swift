import Apply
import BlockerTest
import Blocklists
import Foundation
import Store
import UseCases

/// A saved blocker-test run, in short.
struct RunView: Codable, Sendable {
  var id: Int64
  var startedAt: Date
  var probe: String
  var target: String
  var percent: Double?
  var rating: String
  var blocked: Int
  var reachable: Int
  var inconclusive: Int
  /// The warning that goes with the score (blocked control domains), shown wherever the score is.
  var scoreWarning: String?

  init(_ record: TestRunRecord) {
    id = record.id ?? 0
    scoreWarning = History.scoreWarning(of: record)
    startedAt = record.startedAt
    probe = record.probe
    target = record.target
    let score = Score(blocked: record.blocked, reachable: record.reachable, inconclusive: record.inconclusive)
    percent = score.percent
    rating = score.rating.rawValue
    blocked = record.blocked
    reachable = record.reachable
    inconclusive = record.inconclusive
  }
}

/// Everything the overview shows.
struct OverviewView: Codable, Sendable {
  var profile: String
  var profiles: [String]
  var names: Int?
  var compiledAt: Date?
  var sources: [SourceSummary]
  var lastTest: RunView?
  var warnings: [String]
  var update: UpdateStatus
  var test: TestStatus
  /// The subscription URLs' paths for the active profile.
  var subscriptions: [String]

  /// The overview of the active profile's state and the jobs' statuses.
  init(_ state: StoreView.State, update: UpdateStatus, test: TestStatus, pending: [PendingReapply] = []) {
    let snapshot = state.snapshot
    let base = "/lists/\(snapshot.profile.name)"
    profile = snapshot.profile.name
    profiles = snapshot.profiles.map(\.name)
    names = snapshot.compiled?.names
    compiledAt = snapshot.compiled?.compiledAt
    sources = snapshot.sources.map { SourceSummary($0) }
    lastTest = state.lastRun
    warnings = ProfileStatus(snapshot, pending: pending).warnings.map(WebAdvice.text)
    self.update = update
    self.test = test
    subscriptions = ListCache.Format.allCases.map { "\(base).\($0.fileExtension)" }
  }

  /// An overview of given values (tests).
  init(
    profile: String, profiles: [String], names: Int?, compiledAt: Date?, sources: [SourceSummary],
    lastTest: RunView?, warnings: [String], update: UpdateStatus, test: TestStatus, subscriptions: [String]
  ) {
    self.profile = profile
    self.profiles = profiles
    self.names = names
    self.compiledAt = compiledAt
    self.sources = sources
    self.lastTest = lastTest
    self.warnings = warnings
    self.update = update
    self.test = test
    self.subscriptions = subscriptions
  }
}

/// A backup of an applied file.
struct BackupView: Codable, Sendable {
  var id: String
  var date: Date
  var bytes: Int
}

/// An apply's (or preview's) answer: the result and the lines that change.
struct ApplyView: Encodable, Sendable {
  var result: Applier.Result
  /// The result's warnings in the dashboard's terms (`result.warnings` has the command line's).
  var warnings: [String]
  /// `+ line` / `- line`, at most `diffLimit` lines.
  var diff: String
  /// Lines of the diff left out.
  var diffOmitted: Int
  /// After an apply: a sample of the names probed through the target, as `sanehosts apply --verify` does.
  var verification: Verification?
  /// Why there is no verification (a drop-in with no resolver in the settings), or that the apply was
  /// asked of the privileged unit.
  var verificationNote: String?
  /// Whether the apply was asked of the privileged unit (this process may not write the file).
  var requested = false
}

/// A yes/no field that also reads an HTML checkbox's `on`.
struct Flag: Codable, Sendable, Hashable {
  var value: Bool

  init(_ value: Bool) { self.value = value }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let bool = try? container.decode(Bool.self) {
      value = bool
    } else {
      let text = try container.decode(String.self).lowercased()
      value = ["on", "true", "1", "yes"].contains(text)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension KeyedDecodingContainer {
  /// A number of seconds given as a JSON number or, from a form, as text; empty or absent is nil.
  func decodeSecondsIfPresent(forKey key: Key) throws -> Double? {
    if let seconds = try? decodeIfPresent(Double.self, forKey: key) { return seconds }
    guard let text = try decodeIfPresent(String.self, forKey: key), !text.isEmpty else { return nil }
    guard let seconds = Double(text) else {
      throw DashboardError.badRequest("The \(key.stringValue) \"\(text)\" is not a number of seconds.")
    }
    return seconds
  }
}
