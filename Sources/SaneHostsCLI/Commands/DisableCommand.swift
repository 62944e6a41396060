import Apply
import ArgumentParser
import Blocklists
import Foundation
import Store

/// `sanehosts disable`: takes the managed section out of the hosts file, or removes a DNS server drop-in.
struct DisableCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "disable",
    abstract: "Remove SaneHosts' section from the hosts file (everything else is kept byte for byte).",
    discussion: """
      The file is backed up first and replaced atomically, like `apply`. A file without a section is left \
      alone. With --target, the DNS server drop-in is backed up and deleted instead (--reload then tells \
      the server). `sanehosts apply` puts it back; `sanehosts restore` brings back the file as it was.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var files: ManagedFileOptions
  @Option(
    help:
      "Remove the drop-in of this DNS server target instead: \(ServerTarget.allCases.map(\.rawValue).joined(separator: ", "))."
  )
  var target: Target = .hosts
  @Option(help: ArgumentHelp("The drop-in file (default: the target's usual path).", valueName: "path"))
  var output: String?
  @Flag(help: "After removing a drop-in, make the server forget it (as `apply --reload`).") var reload = false
  @Flag(help: "Show what would change, write nothing.") var dryRun = false
  @Flag(help: "Remove it even if someone else edited SaneHosts' part.") var force = false
  @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false

  func validate() throws {
    if target == .hosts && (output != nil || reload) {
      throw ValidationError("--output and --reload are for a DNS server target (--target).")
    }
  }

  func run() async throws {
    let server = target.server
    let file = files.file(for: target, output: output, data: store.directory)
    // A dry run refuses where the real run would (same message, same exit), and the warning that
    // the edits are replaced is said only when they will be.
    try file.checkWritable()
    let change = try file.prepareRemoval()
    try file.checkCommit(change, force: force)
    if let note = change.drift?.note(path: file.path), !change.isNoOp {
      Terminal.writeError(note + "\n")
    }
    if change.isNoOp {
      if !quiet {
        Terminal.writeError(
          server == nil
            ? "\(file.path) has no SaneHosts section: nothing to remove.\n"
            : "\(file.path) does not exist: nothing to remove.\n")
      }
      return
    }
    if dryRun {
      if !quiet {
        Terminal.writeError(
          "Would remove \(change.removed.count.counted("line")) from \(file.path); nothing written (--dry-run).\n")
      }
      return
    }
    let outcome = try file.commit(change, profile: nil, names: 0, target: target.name, force: force)
    if !quiet {
      let what =
        server == nil
        ? "the SaneHosts section from \(file.path) (\(change.removed.count.counted("line")))" : file.path
      Terminal.writeError("Removed \(what).\(outcome.backup.map { " Backup: \($0.id)." } ?? "")\n")
    }
    if let server, reload {
      let done = try await server.defaultReload(output: file.path).perform(runner: ProcessRunner())
      if !quiet { Terminal.writeError("Reload: \(done).\n") }
    }
  }
}
