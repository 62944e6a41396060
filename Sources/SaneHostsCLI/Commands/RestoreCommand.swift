import Apply
import ArgumentParser
import Blocklists
import Foundation
import Store

/// `sanehosts restore`: lists the backups of the hosts file, or puts one back.
struct RestoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "List the backups of the hosts file (or a DNS server's drop-in), or put one back.",
    discussion: """
      A backup is taken before every change SaneHosts makes (the newest 10 are kept unless \
      --keep-backups says otherwise). With no ID, the newest backup is restored. Restoring backs up the \
      current file first, so a restore can itself be undone. --list also names the other files SaneHosts \
      wrote (from its ledger) and how to list their backups.
      """)

  @Argument(help: "The backup to restore (default: the newest).") var id: String?
  @Flag(help: "List the backups, newest first.") var list = false
  @OptionGroup var store: StoreOptions
  @OptionGroup var files: ManagedFileOptions
  @Option(help: "The file is this target's drop-in: \(Target.names).") var target: Target = .hosts
  @Option(help: ArgumentHelp("The drop-in (default: the target's usual path).", valueName: "path"))
  var output: String?
  @OptionGroup var printing: OutputOptions
  @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false

  func validate() throws {
    if list && id != nil { throw ValidationError("Give either --list or a backup ID, not both.") }
    if output != nil && target == .hosts {
      throw ValidationError("--output is the drop-in of a DNS server: add --target \(ApplyCommand.serverNames).")
    }
  }

  struct BackupJSON: Encodable {
    var id: String
    var date: Date
    var bytes: Int
    var path: String
  }

  func run() throws {
    let file = files.file(for: target, output: output, data: store.directory)
    let backups = file.backups.list()
    if list || printing.json {
      let rows = backups.map { backup in
        BackupJSON(id: backup.id, date: backup.date, bytes: backup.bytes, path: backup.url.path)
      }
      if printing.json {
        Terminal.writeOutput(Text.json(rows))
      } else if rows.isEmpty {
        Terminal.writeError("No backups of \(file.path) in \(file.backups.directory.path).\n")
      } else {
        Terminal.writeOutput(
          Text.table(
            [["ID", "TAKEN", "BYTES"]]
              + rows.map { [$0.id, $0.date.formatted(.iso8601), $0.bytes.grouped] }))
      }
      if !printing.json { Terminal.writeError(otherFiles(than: file)) }
      return
    }
    guard let chosen = id ?? backups.first?.id else {
      Terminal.writeError(otherFiles(than: file))
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
  }

  /// The other files the ledger says SaneHosts wrote, with their backups and the command that lists
  /// them (`restore --list` of /etc/hosts named only it after an apply to another file).
  func otherFiles(than file: ManagedFile) -> String {
    let entries = Ledger(url: store.directory.ledger).entries().filter { $0.key != Ledger.key(file.path) }
    guard !entries.isEmpty else { return "" }
    var out = "Other files SaneHosts wrote:\n"
    for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
      let target = Target(name: entry.target) ?? .hosts
      var options = files
      options.hostsFile = path
      let count = options.file(for: target, output: target == .hosts ? nil : path, data: store.directory).backups
        .list().count
      let option = target == .hosts ? "--hosts-file \(path)" : "--target \(target.name) --output \(path)"
      out += "  \(path) (\(entry.target), \(count.counted("backup"))): sanehosts restore --list \(option)\n"
    }
    return out
  }
}
