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
  /// A rule in the database that `addRules` would never have written (changed by hand or by another
  /// program): it is applied nowhere until removed.
  case invalidStoredRule(profile: String, id: Int64, action: String, text: String, reason: String)
  /// A file or folder of the data directory that is not what SaneHosts keeps there (a symbolic link, a
  /// FIFO, another user's file, a path outside its folder): never read or written.
  case untrustedFile(path: String, detail: String)
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
    case .invalidStoredRule(let profile, let id, let action, let text, let reason):
      "The \(action) rule \(id) of profile “\(profile)” in the database, “\(Self.escaped(text))”, \(reason); nothing was applied."
    case .untrustedFile(let path, let detail):
      "\(Self.escaped(path)) \(detail); nothing was read from it or written through it."
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
    case .invalidStoredRule(let profile, let id, let action, _, _):
      "SaneHosts never writes such a rule: something else changed the database. Remove it with `sanehosts \(action) remove \(id) --profile \(profile)`, and check who can write the data directory."
    case .untrustedFile:
      "SaneHosts never puts such a thing in its data directory: remove it, and check who can write the data directory."
    }
  }
}

extension StoreError {
  /// Text from the database or the file system with its control characters shown as escapes (`\n`), so
  /// a message stays one line and sends no terminal escape.
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        out +=
          scalar == "\n"
          ? "\\n" : scalar == "\r" ? "\\r" : scalar == "\t" ? "\\t" : "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

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
