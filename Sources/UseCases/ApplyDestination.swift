import Apply
import Foundation
import Store

/// Where an apply, disable or restore writes, and how the file is kept: the managed section of the
/// hosts file, or a DNS server's whole drop-in (at a path given, in a drop-in folder, or at the server's
/// default path). The command line (`--hosts-file`, `--output`) and the dashboard (`serve --hosts-file`,
/// `--drop-in-dir`) both choose here.
public enum ApplyDestination {
  /// The path written for `target`.
  public static func path(
    for target: Target, hostsFile: String, output: String? = nil, dropInDirectory: String? = nil
  ) -> String {
    guard let server = target.server else { return hostsFile }
    if let output { return output }
    if let dropInDirectory {
      return "\(dropInDirectory)/sanehosts-\(server.rawValue).\(server.fileExtension)"
    }
    return server.defaultOutput
  }

  /// The managed file for `target` (the hosts file's section, or a drop-in), its backups in `backupDirectory`
  /// (default: the data directory's) and its writes recorded in the data directory's ledger.
  public static func file(
    for target: Target, hostsFile: String, output: String? = nil, dropInDirectory: String? = nil,
    backupDirectory: URL? = nil, keepBackups: Int = 10, data: DataDirectory
  ) -> ManagedFile {
    ManagedFile(
      path: path(for: target, hostsFile: hostsFile, output: output, dropInDirectory: dropInDirectory),
      ownership: target == .hosts ? .section : .whole, backupDirectory: backupDirectory ?? data.backups,
      keepBackups: keepBackups, ledger: Ledger(url: data.ledger))
  }
}
