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

  /// Saves a copy of `bytes`, then removes the oldest beyond `keep`.
  @discardableResult
  public func save(_ bytes: [UInt8], date: Date = Date()) throws -> Backup {
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let stamp = Self.formatter.string(from: date)
    var sequence = 1
    while FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(name)-\(stamp)-\(sequence)").path)
    {
      sequence += 1
    }
    let id = "\(name)-\(stamp)-\(sequence)"
    let url = directory.appendingPathComponent(id)
    do {
      try StagedFile.replace(url.path, with: bytes, mode: 0o600)
    } catch {
      throw CocoaError(
        .fileWriteUnknown, userInfo: [NSFilePathErrorKey: error.path, NSLocalizedDescriptionKey: error.detail])
    }
    for old in list().dropFirst(keep) {
      try? FileManager.default.removeItem(at: old.url)
      try? FileManager.default.removeItem(at: Self.ledgerURL(of: old))
    }
    return Backup(id: id, url: url, date: Self.formatter.date(from: stamp) ?? date)
  }

  /// Keeps beside a backup the ledger's entry for the file when it was taken: what SaneHosts itself had
  /// written then. Restoring a backup whose part someone else had edited then keeps that edit known.
  public func saveLedgerEntry(_ entry: Ledger.Entry, of backup: Backup) {
    guard let data = try? JSONCoding.encode(entry) else { return }
    try? StagedFile.replace(Self.ledgerURL(of: backup).path, with: Array(data), mode: 0o600)
  }

  /// The ledger's entry kept beside a backup (`saveLedgerEntry`), if any.
  public func ledgerEntry(of backup: Backup) -> Ledger.Entry? {
    guard let data = try? Data(contentsOf: Self.ledgerURL(of: backup)) else { return nil }
    return try? JSONCoding.decode(Ledger.Entry.self, from: data)
  }

  /// Where a backup's ledger entry is kept (`list` skips it: its sequence is not a number).
  static func ledgerURL(of backup: Backup) -> URL { backup.url.appendingPathExtension("ledger") }

  /// The backups, newest first.
  public func list() -> [Backup] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let backups = files.compactMap { file -> (Backup, Int)? in
      guard file.hasPrefix("\(name)-") else { return nil }
      let parts = file.dropFirst(name.count + 1).split(separator: "-")
      guard parts.count == 2, let date = Self.formatter.date(from: String(parts[0])), let sequence = Int(parts[1])
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
