import Files
import Foundation
import Store

/// The Pi-holes `pihole sync` made match a profile, kept in the data directory (`piholes.json`) so that a
/// change of the profile's rules (an allow rule ending) reaches them too (`Reapply`). A fleet's Pi-holes
/// are its replicas; these are the ones synced by hand.
public enum SyncedPiholes {
  /// One Pi-hole and the profile it was last synced with.
  public struct Entry: Sendable, Hashable, Codable {
    /// The Pi-hole as given to `pihole --host`.
    public var host: String
    /// The profile.
    public var profile: String
    /// When it was synced.
    public var syncedAt: Date

    /// An entry.
    public init(host: String, profile: String, syncedAt: Date = Date()) {
      self.host = host
      self.profile = profile
      self.syncedAt = syncedAt
    }
  }

  /// The file.
  static func file(in data: DataDirectory) -> URL { data.file("piholes.json") }

  /// Every Pi-hole synced by hand, one entry per host.
  public static func all(in data: DataDirectory) -> [Entry] {
    guard let bytes = try? Data(contentsOf: file(in: data)) else { return [] }
    return (try? JSONCoding.decode([Entry].self, from: bytes)) ?? []
  }

  /// Records that `host` now holds `profile` (replacing what it held).
  public static func remember(_ entry: Entry, in data: DataDirectory) throws {
    let entries = all(in: data).filter { $0.host != entry.host } + [entry]
    try StagedFile.replace(file(in: data).path, with: Array(try JSONCoding.encode(entries)), mode: 0o600)
  }
}
