import DNS
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
    /// What the write held: the profile's fingerprint with the output's options (nil: not recorded, as
    /// before this field existed). Applying the same content to the file as written skips rendering.
    public var content: String?
    /// For a drop-in: the SHA-256 of the file as the server last confirmed loading it (a reload that
    /// succeeded, or `--verify`'s answers matching it), kept apart from what was written; nil: never
    /// confirmed. A copy of those bytes is kept (`Ledger.loadedCopy(for:)`), so a verification checks
    /// every change since, not only the last apply's.
    public var loadedSHA256: String?
    /// When the server last confirmed loading the file.
    public var loadedDate: Date?
    /// For the fleet's primary (`apply --transfer-to`): the zone's serial the primary answered when it
    /// confirmed the loaded copy; a push takes the difference from that copy only while it still answers it.
    public var primarySerial: UInt32?
    /// The profile's allow and deny rules as the file holds them: what the server runs, which `hits`
    /// counts against (a rule added since is not in it until the next apply).
    public var rules: Rules?
    /// The states written, oldest first (at most `historyLimit`): when each was written and, where it was
    /// confirmed, loaded, and the rules it held; `hits` counts each query against the one running then.
    public var history: [State]?
    /// How the file was last applied (nil: before this was recorded), so `reapply` does it again.
    public var recipe: Recipe?

    /// Whether the file as written is the state the server last confirmed loading.
    public var isLoaded: Bool { loadedSHA256 == sha256 }

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

  /// Allow and deny rules, as written (`=a.example`, `*.b.example`, `/re/`).
  public struct Rules: Sendable, Hashable, Codable {
    /// The allow rules.
    public var allow: [String]
    /// The deny rules.
    public var deny: [String]

    /// Rules as written.
    public init(allow: [String], deny: [String]) {
      self.allow = allow
      self.deny = deny
    }
  }

  /// How a file was applied: the options (never a dry run or forced) and where its answers were verified,
  /// so a later `reapply` (an allow rule ending, a timer) writes it the same way and checks it the same way.
  public struct Recipe: Sendable, Hashable, Codable {
    /// The apply's options.
    public var options: Applier.Options
    /// Whether the apply was verified by the server's answers.
    public var verify: Bool
    /// The server asked, when not the one the target names.
    public var verifyServer: ServerAddress?
    /// How long that apply took (rendering, writing, reloading), in seconds.
    public var seconds: Double?

    /// A recipe; `dryRun` and `force` are cleared (a reapply never forces over someone's edit).
    public init(options: Applier.Options, verify: Bool, verifyServer: ServerAddress?, seconds: Double? = nil) {
      self.seconds = seconds
      var options = options
      options.dryRun = false
      options.force = false
      options.verify = verify
      self.options = options
      self.verify = verify
      self.verifyServer = verifyServer
    }
  }

  /// One state of a file as written.
  public struct State: Sendable, Hashable, Codable {
    /// The SHA-256 of the file as written.
    public var sha256: String
    /// When it was written.
    public var date: Date
    /// When its server confirmed loading it (nil: never, or not a drop-in).
    public var loadedDate: Date?
    /// The rules it held.
    public var rules: Rules?

    /// From when the server ran it: when it confirmed loading it, else when it was written.
    public var runningSince: Date { loadedDate ?? date }
  }

  /// States kept per file.
  public static let historyLimit = 20

  /// The JSON file.
  public let url: URL

  /// Creates a ledger kept in a file.
  public init(url: URL) { self.url = url }

  /// Every recorded file, by absolute path.
  public func entries() -> [String: Entry] {
    guard let bytes = try? folder(create: false).read(url.lastPathComponent) else { return [:] }
    return (try? JSONCoding.decode([String: Entry].self, from: Data(bytes))) ?? [:]
  }

  /// The last write recorded for a file.
  public func entry(for path: String) -> Entry? { entries()[Self.key(path)] }

  /// Records a write (or, with nil, forgets the file and its loaded copy).
  public func record(_ entry: Entry?, for path: String) throws(StagedFile.Failure) {
    var all = entries()
    all[Self.key(path)] = entry
    if entry == nil { (try? loadedFolder(create: false))?.remove(Self.loadedName(for: path)) }
    let data = (try? JSONCoding.encode(all, pretty: true)) ?? Data("{}".utf8)
    try folder(create: true).replace(url.lastPathComponent, with: Array(data), mode: 0o600)
  }

  /// The folder the ledger is kept in (the data directory), opened as a `FolderHandle`.
  func folder(create: Bool) throws(StagedFile.Failure) -> FolderHandle {
    try FolderHandle.open(url.deletingLastPathComponent().path, create: create)
  }

  /// `loaded/` beside the ledger, never through a link.
  func loadedFolder(create: Bool) throws(StagedFile.Failure) -> FolderHandle {
    try folder(create: create).folder("loaded", create: create)
  }

  /// The name in `loaded/` of a file's copy: the hash of its path.
  static func loadedName(for path: String) -> String {
    String(ManagedFile.sha256(Array(key(path).utf8)).prefix(16))
  }

  /// The file's bytes as its server last confirmed loading them, else as first written (the baseline a
  /// verification compares the file with); nil when no copy is kept.
  public func loadedCopy(for path: String) -> [UInt8]? {
    (try? loadedFolder(create: false).read(Self.loadedName(for: path))) ?? nil
  }

  /// Keeps `bytes` as the file's baseline when none is kept yet (a first write, or a file written before
  /// copies were kept), without confirming that the server loaded them.
  public func keepBaseline(_ bytes: [UInt8], for path: String) {
    guard let folder = try? loadedFolder(create: true), folder.status(Self.loadedName(for: path)) == nil else { return }
    try? folder.replace(Self.loadedName(for: path), with: bytes, mode: 0o600)
  }

  /// Records that the server confirmed loading the file as `bytes` (the file as written): its copy is
  /// replaced and the entry's loaded state set. Does nothing when the file has no entry or the bytes are
  /// not what was written.
  /// `primarySerial` is the serial the fleet's primary answered with these bytes (nil for any other server).
  public func confirmLoaded(_ bytes: [UInt8], for path: String, at date: Date = Date(), primarySerial: UInt32? = nil)
    throws(StagedFile.Failure)
  {
    guard var entry = entry(for: path) else { return }
    entry.primarySerial = primarySerial
    let digest = ManagedFile.sha256(bytes)
    guard digest == entry.sha256 else { return }
    try loadedFolder(create: true).replace(Self.loadedName(for: path), with: bytes, mode: 0o600)
    entry.loadedSHA256 = digest
    entry.loadedDate = date
    if let last = entry.history?.indices.last, entry.history?[last].sha256 == digest,
      entry.history?[last].loadedDate == nil
    {
      entry.history?[last].loadedDate = date
    }
    try record(entry, for: path)
  }

  /// Records how the file was applied, for `reapply`.
  public func recordRecipe(_ recipe: Recipe, for path: String) throws(StagedFile.Failure) {
    guard var entry = entry(for: path), entry.recipe != recipe else { return }
    entry.recipe = recipe
    try record(entry, for: path)
  }

  /// Records the rules the file as written holds, and the state in the file's history (once per state).
  public func recordRules(_ rules: Rules, for path: String) throws(StagedFile.Failure) {
    guard var entry = entry(for: path) else { return }
    entry.rules = rules
    var history = entry.history ?? []
    if history.last?.sha256 != entry.sha256 {
      history.append(State(sha256: entry.sha256, date: entry.date, loadedDate: nil, rules: rules))
    } else {
      history[history.count - 1].rules = rules
    }
    entry.history = Array(history.suffix(Self.historyLimit))
    guard entry != self.entry(for: path) else { return }
    try record(entry, for: path)
  }

  /// The absolute, symlink-resolved form of a path, which is what entries are keyed by.
  public static func key(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return URL(fileURLWithPath: absolute).resolvingSymlinksInPath().standardizedFileURL.path
  }
}
