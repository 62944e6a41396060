import Blocklists
import Files
import Foundation

/// What can stop an apply, disable or restore, and what to do about it. Nothing was written when one
/// is thrown.
public enum ApplyError: Error, Sendable, Hashable {
  /// The file (or its directory) cannot be written by this user.
  case notPermitted(path: String, detail: String, isRoot: Bool)
  /// The file cannot be read.
  case unreadable(path: String, detail: String)
  /// The folder the file should be in does not exist.
  case missingDirectory(path: String, directory: String)
  /// The file is not a regular file (a directory, device or pipe).
  case notRegularFile(path: String)
  /// The file's managed section is damaged (broken or repeated markers).
  case brokenSection(path: String, problem: ManagedSection.Problem)
  /// The file as it is fails validation.
  case invalidContent(path: String, reason: String)
  /// What would be written fails validation (the server's checker, the section's own check): nothing was
  /// written, the file is as it was.
  case invalidOutput(path: String, reason: String)
  /// The managed section was edited by someone else since SaneHosts last wrote it.
  case sectionEdited(path: String, since: Date)
  /// The file changed between reading it and replacing it.
  case changedMeanwhile(path: String)
  /// No backup has this id.
  case noSuchBackup(id: String, known: [String])
  /// Writing failed; the file is as it was.
  case writeFailed(path: String, detail: String)
  /// The profile has nothing to apply.
  case nothingToApply(profile: String, reason: EmptyProfile)

  /// Why a profile has nothing to apply.
  public enum EmptyProfile: Sendable, Hashable {
    /// No source is enabled (and no deny rule given).
    case noEnabledSource
    /// Sources are enabled, but none has been downloaded yet.
    case noSavedCopy
  }
}

extension ApplyError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .notPermitted(let path, let detail, _):
      "Cannot write \(path): \(detail). Nothing was changed."
    case .unreadable(let path, let detail):
      "Cannot read \(path): \(detail.sentence)"
    case .notRegularFile(let path):
      "\(path) is not a regular file (a directory, device or pipe is never replaced)."
    case .brokenSection(let path, let problem):
      "The SaneHosts section of \(path) is damaged: \(problem.description)."
    case .invalidContent(let path, let reason):
      "Refusing to write \(path): \(reason)."
    case .invalidOutput(let path, let reason):
      "Refusing to write \(path): \(reason). Nothing was written; the file is as it was."
    case .sectionEdited(let path, let since):
      "The SaneHosts section of \(path) was edited by someone else since SaneHosts wrote it (\(since.formatted(.iso8601)))."
    case .changedMeanwhile(let path):
      "\(path) changed while SaneHosts was preparing the new version; nothing was written."
    case .noSuchBackup(let id, _):
      "There is no backup “\(id)”."
    case .writeFailed(let path, let detail):
      "Writing \(path) failed (\(detail)); the file is as it was."
    case .nothingToApply(let profile, let reason):
      switch reason {
      case .noEnabledSource: "Profile “\(profile)” has no enabled source."
      case .noSavedCopy: "Profile “\(profile)” has no saved copy of any source yet."
      }
    case .missingDirectory(let path, let directory):
      "Cannot write \(path): the folder \(directory) does not exist. Nothing was changed."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .missingDirectory:
      "Check the path for a typo, or create the folder first (mkdir -p); SaneHosts creates the file, not its folders."
    case .notPermitted(_, _, let isRoot):
      isRoot
        ? "The file system or a security policy refuses the change: check `mount` and the file's attributes (lsattr, chattr -i), or choose another file (--hosts-file PATH, or --output PATH for a drop-in)."
        : "Run the command with sudo (`sudo sanehosts …`), or choose a file you can write (--hosts-file PATH, or --output PATH for a drop-in)."
    case .unreadable:
      "Check that the path exists and is readable, or choose another with --hosts-file PATH."
    case .notRegularFile:
      "Point --hosts-file (or --output) at a regular file."
    case .brokenSection(_, let problem):
      problem.advice
    case .invalidContent:
      "Fix the file by hand (or restore a backup with `sanehosts restore --list`), then try again."
    case .invalidOutput:
      "The reason names what failed in SaneHosts' own output (a checker's line, a rule): check the profile's rules (`sanehosts allow list`, `deny list`); if the server's checker is wrong, apply with --no-check."
    case .sectionEdited:
      "Lines you add belong outside the markers, where they are kept. Run again with --force to replace the section anyway (the current file is backed up first)."
    case .changedMeanwhile:
      "Run the command again."
    case .noSuchBackup(_, let known):
      known.isEmpty
        ? "There are no backups yet."
        : "Backups, newest first: \(known.prefix(5).joined(separator: ", ")) (see `sanehosts restore --list`)."
    case .writeFailed:
      "Check free disk space and the directory's permissions, then try again."
    case .nothingToApply(_, .noEnabledSource):
      "Add sources with `sanehosts sources add` and run `sanehosts update`, or choose a profile with --profile."
    case .nothingToApply(_, .noSavedCopy):
      "Run `sanehosts update` first, or choose a profile with --profile."
    }
  }
}

extension ManagedSection.Problem: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unterminated(let line): "the begin marker on line \(line) has no end marker after it"
    case .unexpectedEnd(let line): "the end marker on line \(line) has no begin marker before it"
    case .duplicate(let first, let second): "there are two sections, on lines \(first) and \(second)"
    case .invalidBody(let line): "line \(line) of the section is a marker or holds a line break or a NUL byte"
    }
  }

  /// What a user can do about it.
  public var advice: String {
    "Edit the file so it holds at most one complete section (both marker lines), or restore a backup with `sanehosts restore --list`."
  }
}

extension ApplyError {
  /// The error for a failed staged write, telling permission problems apart.
  static func from(_ failure: StagedFile.Failure) -> ApplyError {
    switch failure.code {
    case EACCES, EPERM, EROFS:
      .notPermitted(path: failure.path, detail: failure.detail, isRoot: geteuid() == 0)
    default:
      .writeFailed(path: failure.path, detail: failure.detail)
    }
  }
}
