import Files
import Foundation

/// What SaneHosts last wrote to each file it manages, so a change made by someone else is noticed.
///
/// Kept as JSON (`applied.json` in the data directory), replaced atomically on each change.
public struct Ledger: Sendable {
  /// One managed file's last write.
  public struct Entry: Sendable, Hashable, Codable {
    /// The SHA-256 of the whole file as written.
    public var sha256: String
    /// The SHA-256 of the managed section's bytes as written (the whole file for a drop-in).
    public var sectionSHA256: String
    /// When it was written.
    public var date: Date
    /// The profile applied (nil after `disable`).
    public var profile: String?
    /// Names written.
    public var names: Int
    /// What was written: `hosts` or a DNS server target.
    public var target: String
    /// The SHA-256 of a write that was started but not confirmed (the process may have been killed
    /// between the rename and this record): the file may hold either version.
    public var pendingSHA256: String?
    /// The section's SHA-256 of that write.
    public var pendingSectionSHA256: String?
    /// For a drop-in: whether the server was reloaded after the last write (nil: not recorded, as before
    /// this field existed). `apply --reload` reloads a server that has not loaded the file yet even when
    /// there is nothing new to write.
    public var reloaded: Bool?
    /// What the write held: the profile's fingerprint with the output's options (nil: not recorded, as
    /// before this field existed). Applying the same content to the file as written skips rendering.
    public var content: String?

    /// Creates an entry.
    public init(sha256: String, sectionSHA256: String, date: Date, profile: String?, names: Int, target: String) {
      self.sha256 = sha256
      self.sectionSHA256 = sectionSHA256
      self.date = date
      self.profile = profile
      self.names = names
      self.target = target
    }
  }

  /// The JSON file.
  public let url: URL

  /// Creates a ledger kept in a file.
  public init(url: URL) { self.url = url }

  /// Every recorded file, by absolute path.
  public func entries() -> [String: Entry] {
    guard let data = try? Data(contentsOf: url) else { return [:] }
    return (try? Self.decoder.decode([String: Entry].self, from: data)) ?? [:]
  }

  /// The last write recorded for a file.
  public func entry(for path: String) -> Entry? { entries()[Self.key(path)] }

  /// Records a write (or, with nil, forgets the file).
  public func record(_ entry: Entry?, for path: String) throws(StagedFile.Failure) {
    var all = entries()
    all[Self.key(path)] = entry
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let data = (try? encoder.encode(all)) ?? Data("{}".utf8)
    try StagedFile.replace(url.path, with: Array(data), mode: 0o600)
  }

  /// The absolute, symlink-resolved form of a path, which is what entries are keyed by.
  public static func key(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return URL(fileURLWithPath: absolute).resolvingSymlinksInPath().standardizedFileURL.path
  }

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()
}
