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
