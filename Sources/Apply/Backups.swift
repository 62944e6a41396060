import Files
import Foundation

/// Copies of a file taken before each change, newest first, keeping a bounded number.
///
/// Each backup is named `NAME-YYYYMMDDTHHMMSSZ-N` (N orders backups taken in the same second) and
/// written atomically with mode 0600: a hosts file may hold private names.
public struct Backups: Sendable {
  /// One saved copy.
  public struct Backup: Sendable, Hashable, Identifiable {
    /// The file name, which is also the id `restore` takes.
    public var id: String
    /// Where it is.
    public var url: URL
    /// When it was taken (to the second).
    public var date: Date

    /// Its size in bytes (0 when it cannot be read): what `restore --list` and the dashboard show.
    public var bytes: Int {
      var info = stat()
      return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
    }
  }

  /// Where the backups are kept.
  public let directory: URL
  /// The name they share (e.g. `hosts`).
  public let name: String
  /// How many are kept; older ones are removed.
  public let keep: Int

  /// Creates a backup set.
  public init(directory: URL, name: String, keep: Int = 10) {
    self.directory = directory
    self.name = name
    self.keep = max(1, keep)
  }

  /// The backups folder, opened without following a link (made first with `create`).
  func folder(create: Bool) throws(StagedFile.Failure) -> FolderHandle {
    try FolderHandle.open(directory.deletingLastPathComponent().path, create: create).folder(
      directory.lastPathComponent, create: create)
  }

  /// Saves a copy of `bytes`, then removes the oldest beyond `keep`. The folder and the names in it are
  /// reached without following a link: a `backups` that is a symbolic link is refused, nothing written.
  @discardableResult
  public func save(_ bytes: [UInt8], date: Date = Date()) throws -> Backup {
    let stamp = Self.formatter.string(from: date)
    do {
      let folder = try folder(create: true)
      var sequence = 1
      while folder.status("\(name)-\(stamp)-\(sequence)") != nil { sequence += 1 }
      let id = "\(name)-\(stamp)-\(sequence)"
      try folder.replace(id, with: bytes, mode: 0o600)
      for old in Self.backups(in: folder.names(), name: name, directory: directory).dropFirst(keep) {
        folder.remove(old.id)
        folder.remove(Self.ledgerName(of: old))
      }
      return Backup(id: id, url: directory.appendingPathComponent(id), date: Self.formatter.date(from: stamp) ?? date)
    } catch {
      throw CocoaError(
        .fileWriteUnknown,
        userInfo: [NSFilePathErrorKey: error.path, NSLocalizedDescriptionKey: "\(error.path) \(error.detail)"])
    }
  }

  /// A backup's bytes, read without following a link; a link, FIFO or foreign file is refused by name.
  public func bytes(of backup: Backup) throws(StagedFile.Failure) -> [UInt8] {
    guard let bytes = try folder(create: false).read(backup.id) else {
      throw StagedFile.Failure(path: backup.url.path, detail: "no longer exists", code: ENOENT)
    }
    return bytes
  }

  /// Keeps beside a backup the ledger's entry for the file when it was taken: what SaneHosts itself had
  /// written then. Restoring a backup whose part someone else had edited then keeps that edit known.
  public func saveLedgerEntry(_ entry: Ledger.Entry, of backup: Backup) {
    guard let data = try? JSONCoding.encode(entry) else { return }
    try? folder(create: false).replace(Self.ledgerName(of: backup), with: Array(data), mode: 0o600)
  }

  /// The ledger's entry kept beside a backup (`saveLedgerEntry`), if any.
  public func ledgerEntry(of backup: Backup) -> Ledger.Entry? {
    guard let bytes = try? folder(create: false).read(Self.ledgerName(of: backup)) else { return nil }
    return try? JSONCoding.decode(Ledger.Entry.self, from: Data(bytes))
  }

  /// The name of a backup's ledger entry (`list` skips it: its sequence is not a number).
  static func ledgerName(of backup: Backup) -> String { backup.id + ".ledger" }

  /// The backups, newest first (none when the folder is missing, or is not a folder of this store).
  public func list() -> [Backup] {
    Self.backups(in: (try? folder(create: false).names()) ?? [], name: name, directory: directory)
  }

  /// The backups of `name` among a folder's file names, newest first.
  static func backups(in files: [String], name: String, directory: URL) -> [Backup] {
    let backups = files.compactMap { file -> (Backup, Int)? in
      guard file.hasPrefix("\(name)-") else { return nil }
      let parts = file.dropFirst(name.count + 1).split(separator: "-")
      guard parts.count == 2, let date = formatter.date(from: String(parts[0])), let sequence = Int(parts[1])
      else {
        return nil
      }
      return (Backup(id: file, url: directory.appendingPathComponent(file), date: date), sequence)
    }
    return backups.sorted { ($0.0.date, $0.1) > ($1.0.date, $1.1) }.map(\.0)
  }

  /// The backup with this id, if it exists.
  public func backup(id: String) -> Backup? { list().first { $0.id == id } }

  private static let formatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return formatter
  }()
}
