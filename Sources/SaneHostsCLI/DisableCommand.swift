import Apply
import ArgumentParser
import Foundation
import Store

/// `sanehosts disable`: takes the managed section out of the hosts file.
struct DisableCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "disable",
    abstract: "Remove SaneHosts' section from the hosts file (everything else is kept byte for byte).",
    discussion: """
      The file is backed up first and replaced atomically, like `apply`. A file without a section is left \
      alone. `sanehosts apply` puts the section back.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var files: ManagedFileOptions
  @Flag(help: "Show what would change, write nothing.") var dryRun = false
  @Flag(help: "Remove the section even if someone else edited it.") var force = false
  @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false

  func run() throws {
    let file = files.file(data: store.directory)
    do {
      if !dryRun { try file.checkWritable() }
      let change = try file.prepareRemoval()
      if let note = ChangeText.drift(change.drift, path: file.path), !change.isNoOp {
        Terminal.writeError(note + "\n")
      }
      if change.isNoOp {
        if !quiet { Terminal.writeError("\(file.path) has no SaneHosts section: nothing to remove.\n") }
        return
      }
      if dryRun {
        if !quiet {
          Terminal.writeError(
            "Would remove \(change.removed.count) lines from \(file.path); nothing written (--dry-run).\n")
        }
        return
      }
      let outcome = try file.commit(change, profile: nil, names: 0, target: "hosts", force: force)
      if !quiet {
        Terminal.writeError(
          "Removed the SaneHosts section from \(file.path) (\(change.removed.count) lines).\(outcome.backup.map { " Backup: \($0.id)." } ?? "")\n"
        )
      }
    } catch {
      throw CLIError(error)
    }
  }
}
