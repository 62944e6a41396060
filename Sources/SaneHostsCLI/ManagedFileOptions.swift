import Apply
import ArgumentParser
import Foundation
import Store

/// `--hosts-file`, `--backup-dir` and `--keep-backups`, shared by every command that changes a hosts file.
struct ManagedFileOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The hosts file to change.", valueName: "path"))
  var hostsFile = "/etc/hosts"

  @Option(help: ArgumentHelp("Where backups are kept (default: DATA-DIR/backups).", valueName: "path"))
  var backupDir: String?

  @Option(help: "How many backups of each file to keep.")
  var keepBackups = 10

  func validate() throws {
    if keepBackups < 1 { throw ValidationError("--keep-backups must be at least 1, not \(keepBackups).") }
    if hostsFile.isEmpty { throw ValidationError("--hosts-file needs a path.") }
  }

  /// The managed file at `path` (the hosts file unless a DNS server drop-in is meant).
  func file(_ path: String? = nil, ownership: ManagedFile.Ownership = .section, data: DataDirectory) -> ManagedFile {
    let backups = backupDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? data.backups
    return ManagedFile(
      path: path ?? hostsFile, ownership: ownership, backupDirectory: backups, keepBackups: keepBackups,
      ledger: Ledger(url: data.ledger))
  }
}

extension DataDirectory {
  /// Backups of the files SaneHosts changed.
  var backups: URL { url.appendingPathComponent("backups", isDirectory: true) }
  /// The record of what SaneHosts last wrote to each file.
  var ledger: URL { url.appendingPathComponent("applied.json") }
}

/// Printing a prepared change: the `--diff` lines and the one-line summary.
enum ChangeText {
  /// `+ line` and `- line` for every line of ours added or removed.
  static func diff(_ change: ManagedFile.Change, skipping skip: (String) -> Bool = { _ in false }) -> String {
    var out = ""
    out.reserveCapacity((change.added.count + change.removed.count) * 24)
    for line in change.removed where !skip(line) { out += "- \(line)\n" }
    for line in change.added where !skip(line) { out += "+ \(line)\n" }
    return out
  }

  /// What the drift means, for a warning line.
  static func drift(_ drift: ManagedFile.Drift?, path: String) -> String? {
    switch drift {
    case .outsideSection(let since):
      "note: \(path) was changed by someone else since SaneHosts wrote it (\(since.formatted(.iso8601))); their lines outside the section are kept."
    case .insideSection(let since):
      "warning: the SaneHosts part of \(path) was edited by someone else since \(since.formatted(.iso8601)); those edits are replaced (a backup is kept)."
    case nil:
      nil
    }
  }
}
