import Apply
import Foundation
import Store

/// Where an apply, disable or restore writes, and how the file is kept: the managed section of the
/// hosts file, or a DNS server's whole drop-in (at a path given, in a drop-in folder, or at the server's
/// default path). The command line (`--hosts-file`, `--output`) and the dashboard (`serve --hosts-file`,
/// `--drop-in-dir`) both choose here.
public enum ApplyDestination {
  /// The path written for `server` (nil: the hosts file).
  public static func path(
    for server: ServerTarget?, hostsFile: String, output: String? = nil, dropInDirectory: String? = nil
  ) -> String {
    guard let server else { return hostsFile }
    if let output { return output }
    if let dropInDirectory {
      return "\(dropInDirectory)/sanehosts-\(server.rawValue).\(server.isRPZ ? "rpz" : "conf")"
    }
    return server.defaultOutput
  }

  /// The managed file for `server` (nil: the hosts file's section), its backups in `backupDirectory`
  /// (default: the data directory's) and its writes recorded in the data directory's ledger.
  public static func file(
    for server: ServerTarget?, hostsFile: String, output: String? = nil, dropInDirectory: String? = nil,
    backupDirectory: URL? = nil, keepBackups: Int = 10, data: DataDirectory
  ) -> ManagedFile {
    ManagedFile(
      path: path(for: server, hostsFile: hostsFile, output: output, dropInDirectory: dropInDirectory),
      ownership: server == nil ? .section : .whole, backupDirectory: backupDirectory ?? data.backups,
      keepBackups: keepBackups, ledger: Ledger(url: data.ledger))
  }
}
