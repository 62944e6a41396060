import Foundation

/// A log file with the copies rotation left beside it, oldest first: `dnsmasq.log.3.gz`,
/// `dnsmasq.log.2.gz`, `dnsmasq.log.1`, `dnsmasq.log` (logrotate's numbers), or
/// `dnsmasq.log-20261120.gz`, `dnsmasq.log-20261121` (its `dateext`), and BIND's own `versions`
/// (`queries.log.0` is the newest after the file itself).
public enum LogFiles {
  /// The existing files of `path`'s rotation, oldest first, the file itself last (when it exists).
  public static func rotation(of path: String) -> [String] {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let base = url.lastPathComponent
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var numbered: [(Int, String)] = []
    var dated: [(String, String)] = []
    for name in names where name.hasPrefix(base) && name != base {
      var rest = name.dropFirst(base.count)
      if rest.hasSuffix(".gz") { rest = rest.dropLast(3) }
      if rest.first == ".", let number = Int(rest.dropFirst()), number >= 0 {
        numbered.append((number, name))
      } else if rest.first == "-", rest.count == 9, rest.dropFirst().allSatisfy(\.isNumber) {
        dated.append((String(rest.dropFirst()), name))
      }
    }
    var files = dated.sorted { $0.0 < $1.0 }.map { folder + "/" + $0.1 }
    files += numbered.sorted { $0.0 > $1.0 }.map { folder + "/" + $0.1 }
    if FileManager.default.fileExists(atPath: path) { files.append(path) }
    return files
  }
}
