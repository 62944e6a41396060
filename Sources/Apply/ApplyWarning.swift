import Foundation

/// A warning or note from an apply, as data: each front end says it in its own terms (a command to run,
/// or a button to press). `description` is the command line's wording, and JSON carries that text.
public enum ApplyWarning: Sendable, Hashable, CustomStringConvertible {
  /// An enabled source has no saved copy yet and is left out.
  case notDownloaded(source: String)
  /// So many names in a hosts file that every lookup scans a long file.
  case largeHostsFile(names: Int)
  /// The file was changed by someone else since SaneHosts wrote it.
  case drift(ManagedFile.Drift, path: String)
  /// The file is a mount point, so it was rewritten in place (not atomically).
  case rewrittenInPlace(path: String, backup: String?)
  /// A DNS cache could not be flushed.
  case flushFailed(cache: String)
  /// The server's configuration checker is not installed.
  case notChecked(ConfigCheck)
  /// The drop-in was written, but reloading the server failed.
  case reloadFailed(path: String, server: String)
  /// The drop-in was written, but the change could not be sent to the fleet's primary at `primary`.
  case pushFailed(path: String, primary: String)
  /// What the server answers for blocked names all the same (a leak the drop-in cannot close).
  case cannotBlock(server: String, what: String)
  /// SaneHosts' earlier dnsmasq drop-in is still in place beside the new one.
  case formerDropIn(path: String)
  /// The drop-in's folder did not exist: it was created (or, on a dry run, would be).
  case createdFolder(path: String, dryRun: Bool)
  /// The fleet primary's configuration at `path` changed (its secondaries or keys): BIND reads it only
  /// when told.
  case primaryReconfigure(path: String)

  /// The command line's wording, one sentence.
  public var description: String {
    switch self {
    case .notDownloaded(let source):
      "\(source) has no saved copy yet and is left out (run `sanehosts update`)."
    case .largeHostsFile(let names):
      "\(names.formatted()) names: every lookup scans the whole hosts file. For this many, a DNS server answers faster: `sanehosts apply --target dnsmasq` (or unbound)."
    case .drift(let drift, let path):
      drift.note(path: path)
    case .rewrittenInPlace(let path, let backup):
      "\(path) is a mount point (a container's?), so it was rewritten in place, which is not atomic; the backup \(backup ?? "-") holds the old file."
    case .flushFailed(let cache):
      "could not flush \(cache)"
    case .notChecked(let check):
      check.summary
    case .reloadFailed(let path, let server):
      "\(path) was written, but reloading \(server) failed."
    case .pushFailed(let path, let primary):
      "\(path) was written, but the change could not be sent to the primary \(primary)."
    case .cannotBlock(let server, let what):
      "note: \(server) cannot block this: \(what)"
    case .primaryReconfigure(let path):
      "\(path) changed (the secondaries allowed and notified, or the keys): run rndc reconfig on the primary, or it keeps refusing a new secondary's transfers."
    case .createdFolder(let path, let dryRun):
      dryRun
        ? "note: the folder \(path) does not exist; apply would create it (0755)."
        : "note: created the folder \(path) (0755)."
    case .formerDropIn(let path):
      "SaneHosts' earlier dnsmasq drop-in \(path) (address= lines, which let HTTPS records through) is still loaded as configuration: remove it with `sanehosts disable --target dnsmasq --output \(path)`, then restart dnsmasq."
    }
  }
}

extension ApplyWarning: Encodable {
  /// Encoded as its sentence, which is what readers of `apply --json` get.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
