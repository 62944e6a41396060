import Apply
import ArgumentParser
import Blocklists
import Foundation
import Store

/// `sanehosts restore`: lists the backups of the hosts file, or puts one back.
struct RestoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "List the hosts file's backups, or put one back.",
    discussion: """
      A backup is taken before every change SaneHosts makes (the newest 10 are kept unless \
      --keep-backups says otherwise). With no ID, the newest backup is restored. Restoring backs up the \
      current file first, so a restore can itself be undone.
      """)

  @Argument(help: "The backup to restore (default: the newest).") var id: String?
  @Flag(help: "List the backups, newest first.") var list = false
  @OptionGroup var store: StoreOptions
  @OptionGroup var files: ManagedFileOptions
  @Flag(help: "Print the list as JSON on standard output.") var json = false
  @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false

  func validate() throws {
    if list && id != nil { throw ValidationError("Give either --list or a backup ID, not both.") }
  }

  struct BackupJSON: Encodable {
    var id: String
    var date: Date
    var bytes: Int
    var path: String
  }

  func run() throws {
    let file = files.file(data: store.directory)
    let backups = file.backups.list()
    if list || json {
      let rows = backups.map { backup in
        BackupJSON(
          id: backup.id, date: backup.date,
          bytes: (try? FileManager.default.attributesOfItem(atPath: backup.url.path)[.size] as? Int) ?? 0,
          path: backup.url.path)
      }
      if json {
        Terminal.writeOutput(Text.json(rows))
      } else if rows.isEmpty {
        Terminal.writeError("No backups of \(file.path) in \(file.backups.directory.path).\n")
      } else {
        Terminal.writeOutput(
          Text.table(
            [["ID", "TAKEN", "BYTES"]]
              + rows.map { [$0.id, $0.date.formatted(.iso8601), $0.bytes.grouped] }))
      }
      return
    }
    do {
      guard let chosen = id ?? backups.first?.id else {
        throw ApplyError.noSuchBackup(id: "(newest)", known: [])
      }
      try file.checkWritable()
      let (_, outcome) = try file.restore(chosen)
      if !quiet {
        Terminal.writeError(
          outcome.wrote
            ? "Restored \(file.path) from \(chosen).\(outcome.backup.map { " The file it replaced is backup \($0.id)." } ?? "")\n"
            : "\(file.path) already equals \(chosen): nothing to write.\n")
      }
    } catch {
      throw CLIError(error)
    }
  }
}
