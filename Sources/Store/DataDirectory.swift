import Foundation

/// Where SaneHosts keeps its data: the database, the cached lists and the compiled profiles.
///
/// Chosen in this order: an explicit path (`--data-dir`), `$SANEHOSTS_HOME`, `$XDG_DATA_HOME/sanehosts`,
/// then `~/.local/share/sanehosts`.
public struct DataDirectory: Sendable, Hashable {
  /// The directory itself.
  public let url: URL

  /// Uses a directory as it is.
  public init(url: URL) {
    self.url = url.standardizedFileURL
  }

  /// Resolves the directory from an explicit path, else from the environment.
  public static func resolve(
    explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> DataDirectory {
    func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
    if let path = nonEmpty(explicit) ?? nonEmpty(environment["SANEHOSTS_HOME"]) {
      return DataDirectory(url: URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true))
    }
    if let base = nonEmpty(environment["XDG_DATA_HOME"]), base.hasPrefix("/") {
      return DataDirectory(url: URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("sanehosts"))
    }
    let home = nonEmpty(environment["HOME"]) ?? NSHomeDirectory()
    return DataDirectory(
      url: URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/sanehosts"))
  }

  /// The SQLite database.
  public var database: URL { url.appendingPathComponent("sanehosts.sqlite") }
  /// The last good copy of each source, one file per source and checksum.
  public var lists: URL { url.appendingPathComponent("lists", isDirectory: true) }
  /// The compiled block set of each profile.
  public var profiles: URL { url.appendingPathComponent("profiles", isDirectory: true) }
  /// Work in progress of a running update; removed when the run ends.
  public var staging: URL { url.appendingPathComponent("staging", isDirectory: true) }
  /// Held by the running update.
  public var updateLock: URL { url.appendingPathComponent("update.lock") }

  /// A path inside the directory, from a path relative to it.
  public func file(_ relativePath: String) -> URL { url.appendingPathComponent(relativePath) }

  /// The path of a file inside the directory, relative to it.
  public func relativePath(of file: URL) -> String {
    let base = url.path.hasSuffix("/") ? url.path : url.path + "/"
    let path = file.standardizedFileURL.path
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }

  /// Creates the directory and its subdirectories (readable by the user alone) if they are missing.
  public func create() throws(StoreError) {
    let manager = FileManager.default
    for directory in [url, lists, profiles, staging] {
      do {
        try manager.createDirectory(
          at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw .cannotOpen(path: directory.path, detail: Self.describe(error))
      }
    }
    guard manager.isWritableFile(atPath: url.path) else { throw .readOnly(path: url.path) }
  }

  /// The bytes free for this user on the disk that holds the directory (or its nearest existing parent).
  public var availableBytes: Int64? {
    var path = url
    while !FileManager.default.fileExists(atPath: path.path), path.path != "/" { path.deleteLastPathComponent() }
    var info = statvfs()
    guard statvfs(path.path, &info) == 0 else { return nil }
    return Int64(info.f_bavail) * Int64(info.f_frsize)
  }

  /// Whether the disk is (nearly) full: less room than SQLite needs to grow its files by a page or two.
  var isFull: Bool { (availableBytes ?? .max) < 64 * 1024 }

  static func describe(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let underlying, underlying.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    return (error as NSError).localizedDescription
  }
}
