import Blocklists
import Foundation

/// What can go wrong with the data directory and the database, and what to do about it.
public enum StoreError: Error, Sendable, Hashable {
  /// The data directory or database cannot be created or opened.
  case cannotOpen(path: String, detail: String)
  /// The data directory is not writable.
  case readOnly(path: String)
  /// The database was written by a newer SaneHosts.
  case newerSchema(path: String, migration: String)
  /// A database operation failed.
  case database(detail: String)
  /// The disk holding the data directory has no room left; nothing was changed.
  case diskFull(path: String, available: Int64)
  /// No such profile, source or rule.
  case notFound(kind: String, name: String, known: [String])
  /// The name is taken.
  case alreadyExists(kind: String, name: String)
  /// The source (the same list) is already in the profile.
  case alreadyInProfile(source: String, location: String, profile: String)
  /// A value that cannot be used, with the reason.
  case invalid(value: String, reason: String)
  /// The active profile cannot be deleted.
  case deletingActiveProfile(name: String)
  /// Another update holds the data directory.
  case updateRunning(pid: Int32?, lockFile: String)
}

extension StoreError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .cannotOpen(let path, let detail):
      "Cannot open the data directory \(path): \(detail.sentence)"
    case .readOnly(let path):
      "The data directory \(path) is not writable."
    case .newerSchema(let path, let migration):
      "The database \(path) was written by a newer SaneHosts (it has migration “\(migration)”)."
    case .database(let detail):
      "The database failed: \(detail.sentence)"
    case .diskFull(let path, let available):
      "The disk holding the data directory \(path) is full (\(available) bytes free); nothing was changed."
    case .notFound(let kind, let name, _):
      "There is no \(kind) “\(name)”."
    case .alreadyInProfile(let source, let location, let profile):
      "“\(source)” (\(location)) is already in profile “\(profile)”."
    case .alreadyExists(let kind, let name):
      "\(Self.article(kind)) \(kind) “\(name)” already exists."
    case .invalid(let value, let reason):
      "“\(value)” \(reason)."
    case .deletingActiveProfile(let name):
      "“\(name)” is the active profile and cannot be deleted."
    case .updateRunning(let pid, _):
      "Another update is running\(pid.map { " (process \($0))" } ?? "")."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .cannotOpen:
      "Check the path and its permissions, or choose another directory with --data-dir or SANEHOSTS_HOME."
    case .readOnly:
      "Make it writable by you, or choose another directory with --data-dir or SANEHOSTS_HOME."
    case .newerSchema:
      "Upgrade SaneHosts, or use another data directory with --data-dir."
    case .database:
      "Check free disk space and permissions of the data directory, then try again."
    case .diskFull:
      "Free some space on that disk (old backups, logs, caches), or choose another directory with --data-dir or SANEHOSTS_HOME."
    case .notFound(let kind, _, let known):
      known.isEmpty
        ? "Nothing of that kind exists yet."
        : "Known \(Self.plural(kind)): \(known.prefix(12).joined(separator: ", "))\(known.count > 12 ? ", …" : "")."
    case .alreadyInProfile:
      "Nothing to add: it is updated with the profile's other sources (`sanehosts update`)."
    case .alreadyExists(let kind, _):
      kind.contains("rule")
        ? "Nothing to add: the rule is there."
        : kind == "source" ? "Give it another name (`--name NAME` on the command line)." : "Choose another name."
    case .invalid:
      nil
    case .deletingActiveProfile:
      "Switch to another profile first with `sanehosts profile use NAME`."
    case .updateRunning(_, let lockFile):
      "Wait for it to finish (or run with --wait). If no update is running, the lock \(lockFile) is stale: it is released when its process exits."
    }
  }
}

extension StoreError {
  /// `a` or `an` before a kind (`an allow rule`, `a source`).
  static func article(_ kind: String) -> String {
    guard let first = kind.lowercased().first else { return "A" }
    return "aeiou".contains(first) ? "An" : "A"
  }

  /// A kind in the plural, its noun only (`sources in profile “family”`, `allow rules in “default”`).
  static func plural(_ kind: String) -> String {
    for marker in [" in ", " of "] {
      if let range = kind.range(of: marker) { return kind[..<range.lowerBound] + "s" + kind[range.lowerBound...] }
    }
    return kind + "s"
  }
}
