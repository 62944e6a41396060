import Blocklists
import Foundation
import Loading

extension SourcePhase {
  /// The phase as a loading state, the one every front end draws: idle while waiting; loading with a
  /// message, a share of the work and, while waiting to try again, the retry; success with the outcome;
  /// failure with the `SourceFailure` (its message and what to do).
  public var loadingState: LoadingState<SourceOutcome> {
    switch self {
    case .waiting:
      return .idle
    case .connecting(let attempt):
      return .loading(
        LoadingProgress(message: attempt > 1 ? "connecting (attempt \(attempt))" : "connecting", fraction: fraction))
    case .downloading(let bytes, let total):
      var message = "downloading \(Self.megabytes(bytes))"
      if let total, total > 0 { message += " (\(Int(min(1, Double(bytes) / Double(total)) * 100))%)" }
      return .loading(LoadingProgress(message: message, fraction: fraction))
    case .retrying(let attempt, let of, let delay, let reason):
      let retry = LoadingProgress.retrying(attempt: attempt, of: of, after: delay, reason: reason)
      return .loading(LoadingProgress(message: retry.message, fraction: fraction, retry: retry.retry))
    case .parsing(let lines, _):
      return .loading(LoadingProgress(message: "parsing \(Self.grouped(lines)) entries", fraction: fraction))
    case .validating:
      return .loading(LoadingProgress(message: "validating", fraction: fraction))
    case .saving:
      return .loading(LoadingProgress(message: "saving", fraction: fraction))
    case .done(.failed(let failure)):
      return .failure(failure)
    case .done(let outcome):
      return .success(outcome)
    }
  }

  /// The size of the source's list when known (the download's length, or the bytes of a finished one):
  /// what the run's overall progress weighs it by.
  public var expectedBytes: Int64? {
    switch self {
    case .downloading(_, let total): total
    case .done(.updated(_, _, let bytes)): bytes
    default: nil
    }
  }

  /// The progress of a run of `phases`, 0…1: each source weighed by its size (a large list at 18 % keeps
  /// the run near 18 %, where an average over sources said 89 %), a source of unknown size by the mean
  /// of the known ones.
  public static func overallFraction(_ phases: [SourcePhase]) -> Double {
    guard !phases.isEmpty else { return 0 }
    let known = phases.compactMap(\.expectedBytes).filter { $0 > 0 }
    let mean = known.isEmpty ? 1 : Double(known.reduce(0, +)) / Double(known.count)
    var done = 0.0
    var all = 0.0
    for phase in phases {
      let weight = phase.expectedBytes.flatMap { $0 > 0 ? Double($0) : nil } ?? mean
      done += weight * phase.fraction
      all += weight
    }
    return all > 0 ? done / all : 0
  }

  /// How far along the source is, 0…1, on one scale for every front end: connecting and retrying 5 %,
  /// the download up to 70 %, parsing 80 %, validating 90 %, saving 95 %, done (however it ended) 100 %.
  public var fraction: Double {
    switch self {
    case .waiting: 0
    case .connecting, .retrying: 0.05
    case .downloading(let bytes, let total):
      total.map { 0.05 + 0.65 * min(1, Double(bytes) / Double(max(1, $0))) } ?? 0.3
    case .parsing: 0.8
    case .validating: 0.9
    case .saving: 0.95
    case .done: 1
    }
  }

  /// 12,345: thousands separated by commas, whatever the locale.
  static func grouped(_ number: Int) -> String { number.grouped }

  /// 1.2 MB, with one decimal.
  static func megabytes(_ bytes: Int64) -> String {
    let tenths = Int((Double(bytes) / 100_000).rounded())
    return "\(tenths / 10).\(tenths % 10) MB"
  }
}
