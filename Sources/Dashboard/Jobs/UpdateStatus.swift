import Blocklists
import Foundation
import Loading
import Store
import Updates
import UseCases

/// Where a dashboard update is: the run's phase and one row per source, as the pages show them.
struct UpdateStatus: JobStatus, Codable, Hashable {
  /// One source's progress.
  struct SourceRow: Codable, Hashable, Sendable {
    /// The source's key.
    var key: String
    /// Its phase word: waiting, connecting, downloading, retrying, parsing, validating, saving, updated,
    /// unchanged, failed, cancelled.
    var phase: String
    /// The phase for people: "downloading 1.2 MB (30%)", "parsing 1,234 entries"…
    var detail: String
    /// How far the source is, 0…1 (0 once failed).
    var fraction: Double

    /// Whether the source is done: updated, unchanged, failed or cancelled.
    var isFinished: Bool { ["updated", "unchanged", "failed", "cancelled"].contains(phase) }
  }

  /// The run's phase.
  var state: JobPhase = .idle
  /// The profile being updated.
  var profile: String?
  /// Each source, in the profile's order.
  var sources: [SourceRow] = []
  /// The step after the downloads: "compiling", "saving".
  var step: String?
  /// How the run ended, or why it failed.
  var message: String?
  /// Names in the compiled profile, once done.
  var names: Int?
  /// Sources updated, unchanged and failed, once done.
  var updated = 0
  var unchanged = 0
  var failed = 0
  /// When the run started and ended.
  var startedAt: Date?
  var finishedAt: Date?

  static var idle: UpdateStatus { UpdateStatus() }

  /// Moves the status on by one event of the updater.
  mutating func apply(_ event: UpdateEvent) {
    switch event {
    case .started(let profile, let sources):
      self.profile = profile.name
      self.sources = sources.map { SourceRow(key: $0.key, phase: "waiting", detail: "waiting", fraction: 0) }
    case .source(let key, let phase):
      guard let index = sources.firstIndex(where: { $0.key == key }) else { return }
      sources[index] = Self.row(key: key, phase)
    case .compiling:
      step = "compiling"
    case .saving:
      step = "saving"
    case .finished:
      break
    }
  }

  /// The status of a finished run.
  mutating func finish(_ summary: UpdateSummary, health: UpdateHealth? = nil) {
    state = summary.run.outcome == .failed ? .failed : .finished
    step = nil
    names = summary.compiled?.names
    updated = summary.run.updated
    unchanged = summary.run.unchanged
    failed = summary.run.failed
    finishedAt = Date()
    var text = "\(updated) updated, \(unchanged) unchanged, \(failed) failed"
    if let names { text += "; \(names.counted("name")) blocked" }
    text += "."
    if let health, !health.held.isEmpty {
      text += " Held back (fewer than half the names of the last good copy): \(health.held.joined(separator: ", "))."
    }
    if let health, !health.stale.isEmpty {
      text += " May be stale: \(health.stale.map { "\($0.source) (\($0.message))" }.joined(separator: "; "))."
    }
    message = text
  }

  /// The row for a source in `phase`, drawn from its loading state (the command line draws the same one).
  static func row(key: String, _ phase: SourcePhase) -> SourceRow {
    switch phase.loadingState {
    case .idle:
      return SourceRow(key: key, phase: "waiting", detail: "waiting", fraction: 0)
    case .loading(let progress):
      return SourceRow(
        key: key, phase: phase.name, detail: progress.message ?? phase.name, fraction: progress.fraction ?? 0)
    case .success(.updated(let names, let rejected, _)):
      let rejects = rejected > 0 ? ", \(rejected.grouped) rejected" : ""
      return SourceRow(key: key, phase: "updated", detail: "updated: \(names.counted("name"))\(rejects)", fraction: 1)
    case .success:
      return SourceRow(key: key, phase: "unchanged", detail: "unchanged", fraction: 1)
    case .failure(let failure) where (failure.error as? SourceFailure)?.kind == .cancelled:
      let kept = (failure.error as? SourceFailure)?.suggestion == nil ? "" : "; the previous copy is kept"
      return SourceRow(key: key, phase: "cancelled", detail: "cancelled\(kept)", fraction: 0)
    case .failure(let failure):
      // An empty bar: a full one would read as done.
      let text = (failure.error as? SourceFailure)?.text(withoutKey: key) ?? failure.message
      return SourceRow(key: key, phase: "failed", detail: "failed: \(text)", fraction: 0)
    }
  }
}

extension BinaryInteger {
  /// The number of bytes in MB with one decimal: 1.2 MB.
  var megabytes: String { String(format: "%.1f MB", Double(self) / 1_000_000) }
}
