import Blocklists
import Downloads
import Store

/// Where one source is in an update: connect → download → parse → validate → save → done.
public enum SourcePhase: Sendable, Hashable {
  /// Waiting for a free slot.
  case waiting
  /// Connecting (attempt counts from 1).
  case connecting(attempt: Int)
  /// Receiving bytes; `total` when the server announced a length.
  case downloading(bytes: Int64, total: Int64?)
  /// A transient failure; attempt `attempt` (counted from 1) of `of` starts after `after`.
  case retrying(attempt: Int, of: Int, after: Duration, reason: String)
  /// Parsing the download: lines read, and names read (repeats included).
  case parsing(lines: Int, names: Int)
  /// Checking what parsing found (a list, with names).
  case validating
  /// Keeping the copy for the commit, then (a new copy) waiting for its turn to be merged into the
  /// profile, which counts its distinct names and writes them beside it.
  case saving
  /// Finished.
  case done(SourceOutcome)

  /// A short word for logs: `waiting`, `connecting`, `downloading`…
  public var name: String {
    switch self {
    case .waiting: "waiting"
    case .connecting: "connecting"
    case .downloading: "downloading"
    case .retrying: "retrying"
    case .parsing: "parsing"
    case .validating: "validating"
    case .saving: "saving"
    case .done(let outcome): outcome.name
    }
  }
}

/// How one source ended.
public enum SourceOutcome: Sendable, Hashable {
  /// Why an unchanged source was not parsed again.
  public enum UnchangedReason: String, Sendable, Hashable {
    /// The server answered 304 Not Modified (or the file's modification time had not changed).
    case notModified
    /// The download had the same SHA-256 as the saved copy.
    case sameContent
  }

  /// A new copy: its distinct names and rejected tokens.
  case updated(names: Int, rejected: Int, bytes: Int64)
  /// Nothing changed.
  case unchanged(UnchangedReason)
  /// It failed; the previous copy (if any) is kept.
  case failed(SourceFailure)

  /// `updated`, `unchanged` or `failed`.
  public var name: String {
    switch self {
    case .updated: "updated"
    case .unchanged: "unchanged"
    case .failed: "failed"
    }
  }
}

/// Why a source failed, and what to do about it.
public struct SourceFailure: Error, Sendable, Hashable {
  /// The kind of failure.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// The network, the server or the file could not deliver it.
    case download
    /// It is plainly not a list (a web page, an archive…).
    case notAList
    /// It parsed, but held no valid name.
    case noEntries
    /// It could not be read or kept.
    case unreadable
    /// Cancelled alone during the run (`SourceCancellation`).
    case cancelled
    /// The new copy has fewer than half the names of the last good one: held back until accepted.
    case suspiciousShrink
  }

  /// The kind.
  public var kind: Kind
  /// What went wrong, naming the source.
  public var message: String
  /// What to do.
  public var suggestion: String?

  /// Creates a failure.
  public init(kind: Kind, message: String, suggestion: String?) {
    self.kind = kind
    self.message = message
    self.suggestion = suggestion
  }

  /// The message and the suggestion as one text.
  public var text: String { [message, suggestion].compactMap { $0 }.joined(separator: " ") }

  /// The text without a leading "KEY: ", for a place that names the source itself (a row, a status line).
  public func text(withoutKey key: String) -> String {
    [message(withoutKey: key), suggestion].compactMap { $0 }.joined(separator: " ")
  }

  /// The message alone, without a leading "KEY: " (a list of places, each said without the suggestion).
  public func message(withoutKey key: String) -> String {
    let prefix = "\(key): "
    return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
  }
}

/// What an update reports as it goes.
public enum UpdateEvent: Sendable {
  /// The run started with these sources (enabled ones of the profile, in order).
  case started(profile: Profile, sources: [Source])
  /// A source moved on.
  case source(key: String, SourcePhase)
  /// Compiling the profile from every good copy (skipped when nothing it depends on changed).
  case compiling(sources: Int)
  /// Saving the run to the store.
  case saving
  /// Done; the summary is also returned.
  case finished(UpdateSummary)
}

/// The result of an update.
public struct UpdateSummary: Sendable {
  /// The run as saved.
  public var run: UpdateRun
  /// Each source's outcome, by key, in the profile's order.
  public var outcomes: [(key: String, outcome: SourceOutcome)]
  /// The profile's compiled list.
  public var compiled: CompiledProfile?
  /// Whether the profile was compiled again (false when nothing it depends on changed).
  public var recompiled: Bool
  /// Enabled sources that have no good copy yet (never downloaded successfully).
  public var missingCopies: [String]
  /// Wall time of the run.
  public var elapsed: Duration
}
