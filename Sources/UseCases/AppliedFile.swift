import Apply
import Foundation
import Store

/// A file SaneHosts last wrote, from the ledger: what it put there, and whether the file still holds it.
/// `status`, the dashboard's Apply page and `profile delete` read the ledger through this.
public struct AppliedFile: Sendable, Hashable {
  /// The file.
  public var path: String
  /// `hosts` or the server target.
  public var target: String
  /// The profile written there (nil: SaneHosts' part was taken out).
  public var profile: String?
  /// Names written.
  public var names: Int
  /// When.
  public var date: Date
  /// Whether the file is still there.
  public var exists: Bool
  /// Whether it holds exactly what was written (nil when not checked; false when it is gone).
  public var unchanged: Bool?

  /// Every file of the ledger, by path; `checkContent` hashes each to say whether it is unchanged.
  public static func all(data: DataDirectory, checkContent: Bool = true) -> [AppliedFile] {
    Ledger(url: data.ledger).entries().sorted { $0.key < $1.key }.map { path, entry in
      AppliedFile(path: path, entry: entry, checkContent: checkContent)
    }
  }

  /// The ledger's record of the managed file, if SaneHosts ever wrote it.
  public init?(_ file: ManagedFile) {
    guard let entry = file.ledger.entry(for: file.path) else { return nil }
    self.init(path: file.path, entry: entry, checkContent: true)
  }

  init(path: String, entry: Ledger.Entry, checkContent: Bool) {
    self.path = path
    target = entry.target
    profile = entry.profile
    names = entry.names
    date = entry.date
    exists = FileManager.default.fileExists(atPath: path)
    unchanged =
      checkContent
      ? (FileManager.default.contents(atPath: path).map { ManagedFile.sha256(Array($0)) == entry.sha256 } ?? false)
      : nil
  }

  /// Forgets the ledger's entries of files that are gone and whose profile no longer exists (or, with
  /// `profile`, of that profile): nothing is left to show or take off. Returns the paths forgotten.
  @discardableResult
  public static func forgetGone(in store: Store, profile: String? = nil) -> [String] {
    let ledger = Ledger(url: store.directory.ledger)
    let existing = Set(((try? store.profiles()) ?? []).map { $0.name.lowercased() })
    var forgotten: [String] = []
    for (path, entry) in ledger.entries() where !FileManager.default.fileExists(atPath: path) {
      let owner = entry.profile?.lowercased()
      let gone = profile.map { owner == $0.lowercased() } ?? (owner.map { !existing.contains($0) } ?? true)
      guard gone else { continue }
      if (try? ledger.record(nil, for: path)) != nil { forgotten.append(path) }
    }
    return forgotten
  }

  /// Whether it holds names of `profile` now.
  public func holds(_ profile: String) -> Bool { exists && self.profile == profile && names > 0 }
}
