import Blocklists
import Foundation
import Store

/// Why an update could not run at all (a single source failing is a `SourceFailure`, not this).
public enum UpdateError: Error, Sendable {
  /// The profile has no enabled source.
  case noSources(profile: String)
  /// The store could not be read or written.
  case store(StoreError)
  /// The profile's compiled list could not be written.
  case compile(CompileError)
  /// A file the run wrote could not be flushed to disk, so nothing was saved.
  case unsaved(path: String, detail: String)
}

extension UpdateError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .noSources(let profile): "Profile “\(profile)” has no enabled source to update."
    case .store(let error): error.errorDescription
    case .compile(let error): error.errorDescription
    case .unsaved(let path, let detail): "The update could not save \(path): \(detail); nothing was changed."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .noSources:
      "Add one with `sanehosts sources add ID|URL|FILE` (see `sanehosts catalog`), or enable one with `sanehosts sources enable`."
    case .store(let error): error.recoverySuggestion
    case .compile(let error): error.recoverySuggestion
    case .unsaved:
      "Check the free space and the health of the disk holding the data directory (`df`, `dmesg`), then run the update again."
    }
  }
}
