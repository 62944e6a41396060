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
}

extension UpdateError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .noSources(let profile): "Profile “\(profile)” has no enabled source to update."
    case .store(let error): error.errorDescription
    case .compile(let error): error.errorDescription
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .noSources:
      "Add one with `sanehosts sources add ID|URL|FILE` (see `sanehosts catalog`), or enable one with `sanehosts sources enable`."
    case .store(let error): error.recoverySuggestion
    case .compile(let error): error.recoverySuggestion
    }
  }
}
