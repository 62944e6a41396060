import Apply
import ArgumentParser
import Foundation
import Store
import UseCases

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

  /// The managed file for `target`, written at `output` when given.
  func file(for target: Target = .hosts, output: String? = nil, data: DataDirectory) -> ManagedFile {
    ApplyDestination.file(
      for: target, hostsFile: hostsFile, output: output,
      backupDirectory: backupDir.map { URL(fileURLWithPath: $0, isDirectory: true) }, keepBackups: keepBackups,
      data: data)
  }
}
