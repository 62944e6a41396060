import Blocklists
import Crypto
import Files
import Foundation
import Locking

#if canImport(Glibc)
  import Glibc
#endif

/// A file SaneHosts changes safely: validated first, backed up, replaced atomically, recorded.
///
/// Either only its marked section is ours (a hosts file: every byte outside the markers is kept) or the
/// whole file is (a DNS server drop-in). Every change goes `prepare…` → `commit`: preparing reads and
/// checks the file and builds the new bytes without writing anything, so `--dry-run` and `--diff` show
/// exactly what `commit` would write.
public struct ManagedFile: Sendable {
  /// How much of the file SaneHosts owns.
  public enum Ownership: String, Sendable, Hashable, Codable {
    /// The lines between the markers (`ManagedSection`).
    case section
    /// All of it.
    case whole
  }

  /// A change someone else made since SaneHosts last wrote the file.
  public enum Drift: Sendable, Hashable {
    /// Lines outside the section changed; they are kept as they are now.
    case outsideSection(since: Date)
    /// The section itself (or, for a drop-in, the file) was edited: writing would undo those edits.
    case insideSection(since: Date)
  }

  /// A prepared change: what is there, what would be written, and what differs.
  public struct Change: Sendable {
    /// The file.
    public var path: String
    /// The bytes now (nil when the file does not exist).
    public var before: [UInt8]?
    /// The bytes to write (nil: remove the file; only for drop-ins being disabled).
    public var after: [UInt8]?
    /// A change by someone else since our last write.
    public var drift: Drift?
    /// Byte ranges in `after` of the lines of our part that would be added (comments left out).
    public var addedLines: [Range<Int>]
    /// Byte ranges in `before` of the lines of our part that would be removed (comments left out).
    public var removedLines: [Range<Int>]
    /// Whether writing would change nothing.
    public var isNoOp: Bool { before == after }
    /// The digests of `before` when preparing learnt them: it hashes the file to look for drift, and
    /// a file that hashes as recorded has the recorded section digest too (so a commit need not hash
    /// the old file twice more).
    var beforeDigests: Digests?

    /// How many added lines are entries: `volatile` lines (a zone's SOA serial) left out, without
    /// making a string of each line (a first drop-in adds every line: 415,768 strings took 40 ms).
    public func addedEntryCount(skipping volatile: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int {
      Self.count(after, addedLines, skipping: volatile)
    }

    /// How many removed lines are entries: `volatile` lines left out.
    public func removedEntryCount(skipping volatile: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int {
      Self.count(before, removedLines, skipping: volatile)
    }

    /// The added lines as text (made on each call: count with `addedLines`).
    public var added: [String] { Self.text(after, addedLines) }
    /// The removed lines as text (made on each call: count with `removedLines`).
    public var removed: [String] { Self.text(before, removedLines) }

    /// Creates a change (normally made by `prepare…`).
    public init(
      path: String, before: [UInt8]?, after: [UInt8]?, drift: Drift?, addedLines: [Range<Int>],
      removedLines: [Range<Int>]
    ) {
      self.path = path
      self.before = before
      self.after = after
      self.drift = drift
      self.addedLines = addedLines
      self.removedLines = removedLines
    }

    /// A change of nothing: the file stays as it is.
    public static func none(path: String, bytes: [UInt8]?) -> Change {
      Change(path: path, before: bytes, after: bytes, drift: nil, addedLines: [], removedLines: [])
    }

    private static func count(
      _ bytes: [UInt8]?, _ lines: [Range<Int>], skipping volatile: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Int {
      guard let bytes else { return 0 }
      return bytes.withUnsafeBufferPointer { all in
        lines.reduce(0) { $0 + (volatile(UnsafeBufferPointer(rebasing: all[$1])) ? 0 : 1) }
      }
    }

    private static func text(_ bytes: [UInt8]?, _ lines: [Range<Int>]) -> [String] {
      guard let bytes else { return [] }
      return lines.map { String(decoding: bytes[$0], as: UTF8.self) }
    }
  }

  /// What a commit did.
  public struct Outcome: Sendable, Hashable {
    /// The backup of the previous content (nil when there was no file, or nothing changed).
    public var backup: Backups.Backup?
    /// Whether the file had to be rewritten in place (it is a mount point), which is not atomic.
    public var inPlace: Bool
    /// Whether anything was written.
    public var wrote: Bool

    /// Creates an outcome.
    public init(backup: Backups.Backup? = nil, inPlace: Bool = false, wrote: Bool = false) {
      self.backup = backup
      self.inPlace = inPlace
      self.wrote = wrote
    }
  }

  /// The file.
  public let path: String
  /// How much of it is ours.
  public let ownership: Ownership
  /// Where its backups go.
  public let backups: Backups
  /// Our record of what we last wrote.
  public let ledger: Ledger
  /// The largest file written or read (a hosts file beyond this is surely a mistake).
  public var maximumSize: Int

  /// Creates a managed file whose backups are kept in `backupDirectory`, named after its path.
  public init(
    path: String, ownership: Ownership, backupDirectory: URL, keepBackups: Int = 10, ledger: Ledger,
    maximumSize: Int = 1 << 30
  ) {
    self.path = path
    self.ownership = ownership
    self.backups = Backups(directory: backupDirectory, name: Self.backupName(for: path), keep: keepBackups)
    self.ledger = ledger
    self.maximumSize = maximumSize
  }

  /// The backup name for a path: `/etc/hosts` → `etc_hosts`.
  public static func backupName(for path: String) -> String {
    let key = Ledger.key(path)
    let name = key.split(separator: "/").joined(separator: "_")
    return name.isEmpty ? "root" : name
  }

  // MARK: Reading and preparing

  /// The file's bytes, or nil when it does not exist.
  public func read() throws(ApplyError) -> [UInt8]? {
    var status = stat()
    guard stat(path, &status) == 0 else {
      if errno == ENOENT { return nil }
      throw .unreadable(path: path, detail: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
    guard Int(status.st_size) <= maximumSize else {
      throw .invalidContent(path: path, reason: "it is \(status.st_size) bytes, more than the \(maximumSize) allowed")
    }
    // Read straight into the array (through `Data` it was copied twice: 25 ms for a 12 MB hosts file).
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, detail: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = max(64 * 1024, Int(status.st_size) + 1)
    while true {
      let start = bytes.count
      var failure: Int32 = 0
      var count = 0
      bytes.appendZeros(chunk)
      bytes.withUnsafeMutableBufferPointer { buffer in
        repeat {
          count = Glibc.read(descriptor, buffer.baseAddress! + start, chunk)
        } while count < 0 && errno == EINTR
        if count < 0 { failure = errno }
      }
      bytes.removeLast(chunk - max(0, count))
      if count < 0 { throw .unreadable(path: path, detail: String(cString: strerror(failure))) }
      if count == 0 { return bytes }
      // A file that grew while it was read: its size is checked again below.
      guard bytes.count <= maximumSize else {
        throw .invalidContent(path: path, reason: "it is more than the \(maximumSize) bytes allowed")
      }
      chunk = 64 * 1024
    }
  }

  /// Prepares putting `lines` in the section (ownership `.section`) or as the whole file (`.whole`).
  public func prepare(lines: [String]) throws(ApplyError) -> Change {
    try prepare(body: lines.isEmpty ? [] : Array((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// Prepares putting `body` (lines, each ending in a newline) in the section (ownership `.section`) or
  /// as the whole file (`.whole`).
  public func prepare(body: [UInt8]) throws(ApplyError) -> Change {
    let before = try read()
    let after: [UInt8]
    switch ownership {
    case .section:
      if let nul = before?.firstIndex(of: 0) {
        throw .invalidContent(path: path, reason: "it already holds a NUL byte at offset \(nul)")
      }
      do throws(ManagedSection.Problem) {
        after = try ManagedSection.apply(body: body, to: before ?? [])
      } catch {
        throw error.isBody
          ? .invalidContent(path: path, reason: error.description) : .brokenSection(path: path, problem: error)
      }
    case .whole:
      after = body
    }
    return try change(before: before, after: after)
  }

  /// Prepares writing `bytes` as the whole file (ownership `.whole`).
  public func prepare(contents bytes: [UInt8]) throws(ApplyError) -> Change {
    try change(before: try read(), after: bytes)
  }

  /// Prepares taking our part out: the section from a hosts file, or a drop-in file altogether.
  public func prepareRemoval() throws(ApplyError) -> Change {
    let before = try read()
    guard let before else { return try change(before: nil, after: nil) }
    switch ownership {
    case .section:
      let after: [UInt8]
      do throws(ManagedSection.Problem) {
        after = try ManagedSection.remove(from: before)
      } catch {
        throw .brokenSection(path: path, problem: error)
      }
      return try change(before: before, after: after)
    case .whole:
      return try change(before: before, after: nil)
    }
  }

  private func change(before: [UInt8]?, after: [UInt8]?) throws(ApplyError) -> Change {
    if let after {
      if after.count > maximumSize {
        throw .invalidOutput(
          path: path, reason: "the new file would be \(after.count) bytes, more than \(maximumSize)")
      }
      if let nul = Self.firstNUL(in: after) {
        throw .invalidOutput(path: path, reason: "the new file would hold a NUL byte at offset \(nul)")
      }
    }
    let (added, removed) = Self.difference(before.map { ($0, ours($0)) }, after.map { ($0, ours($0)) })
    let (drift, beforeDigests) = driftAndDigests(before)
    var change = Change(
      path: path, before: before, after: after, drift: drift, addedLines: added, removedLines: removed)
    change.beforeDigests = beforeDigests
    return change
  }

  /// How `new` differs from `old`, two versions of this file (what the server last loaded and what is
  /// there now): the entries only in each, as `prepare` finds them, with no drift.
  public func difference(from old: [UInt8]?, to new: [UInt8]) -> Change {
    let (added, removed) = Self.difference(old.map { ($0, ours($0)) }, (new, ours(new)))
    return Change(path: path, before: old, after: new, drift: nil, addedLines: added, removedLines: removed)
  }

  /// The byte ranges of our entries in some content: its lines, comments, blank lines and a CR before LF
  /// left out; a dnsmasq line with several names (`server=/a/b/…/`) is one entry per name.
  ///
  /// So a diff and its counts are in names, whether the drop-in was written one name a line (before
  /// lines were packed) or many: a name added moves the others to new lines, but changes one entry.
  private func ours(_ bytes: [UInt8]) -> [Range<Int>] {
    var region = 0..<bytes.count
    if ownership == .section {
      guard let location = try? ManagedSection.locate(in: bytes) else { return [] }
      region = location.body
    }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return [] }
      var lines: [Range<Int>] = []
      lines.reserveCapacity(region.count / 24)
      var start = region.lowerBound
      while start < region.upperBound {
        let found = memchr(base + start, 10, region.upperBound - start)
        let end = found.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? region.upperBound
        var last = end
        if last > start && buffer[last - 1] == 13 { last -= 1 }
        var first = start
        while first < last && (buffer[first] == 0x20 || buffer[first] == 0x09) { first += 1 }
        if first < last && buffer[first] != UInt8(ascii: "#") && buffer[first] != UInt8(ascii: ";") {
          if !Self.appendNames(buffer, first..<last, to: &lines) { lines.append(start..<last) }
        }
        start = end + 1
      }
      return lines
    }
  }

  /// Appends the range of each name of a dnsmasq block line (`server=/a/b/…/`, or `address=/a/b/…/TARGET` as
  /// written before); false, appending nothing, for any other line (an exception such as `server=/a/#` is
  /// one entry, the whole line, so it never reads as the block of the same name).
  static func appendNames(_ buffer: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, to entries: inout [Range<Int>])
    -> Bool
  {
    guard let base = buffer.baseAddress else { return false }
    let key: [UInt8]
    if line.count > addressKey.count + 1, memcmp(base + line.lowerBound, addressKey, addressKey.count) == 0 {
      key = addressKey
    } else if line.count > serverKey.count + 1, memcmp(base + line.lowerBound, serverKey, serverKey.count) == 0,
      buffer[line.upperBound - 1] == UInt8(ascii: "/")
    {
      key = serverKey
    } else {
      return false
    }
    // The last slash is a few bytes from the end (`/`, `/#`, `/0.0.0.0`).
    var lastSlash = line.upperBound - 1
    while lastSlash > line.lowerBound + key.count && buffer[lastSlash] != UInt8(ascii: "/") { lastSlash -= 1 }
    guard lastSlash > line.lowerBound + key.count else { return false }
    // The names between the slashes, found with `memchr` (a byte at a time, this was most of a first
    // drop-in's comparison).
    var start = line.lowerBound + key.count
    while start <= lastSlash {
      let slash =
        UnsafePointer(
          memchr(base + start, Int32(UInt8(ascii: "/")), lastSlash + 1 - start)!.assumingMemoryBound(to: UInt8.self))
        - base
      if slash > start { entries.append(start..<slash) }
      start = slash + 1
    }
    return true
  }

  /// The offset of the first NUL byte, if any (`memchr`: the generic search took 6 ms on a 6 MB drop-in).
  static func firstNUL(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, let found = memchr(base, 0, buffer.count) else { return nil }
      return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }
  }

  private static let addressKey = Array("address=/".utf8)
  private static let serverKey = Array("server=/".utf8)

  /// Lines only in the new content (added) and only in the old (removed), each in its file's order, as
  /// byte ranges. Lines are compared by a 64-bit hash of their bytes, read eight at a time.
  static func difference(
    _ old: ([UInt8], [Range<Int>])?, _ new: ([UInt8], [Range<Int>])?
  ) -> (added: [Range<Int>], removed: [Range<Int>]) {
    // A new file, or one going away: every line is added, or removed, with nothing to compare.
    guard let (oldBytes, oldLines) = old, !oldLines.isEmpty else { return (new?.1 ?? [], []) }
    guard let (newBytes, newLines) = new, !newLines.isEmpty else { return ([], oldLines) }
    // The lines both sides share at the start and at the end are skipped first, compared in place: a
    // rule more or less, or a few names, leaves most of a section where it was (415,768 lines hashed
    // into sets took 90 ms of such an apply). The result is the same as comparing whole sets while no
    // line of our part appears twice, which SaneHosts never writes (every name once); a repeated line
    // then counts where its copies differ in number, in the middle.
    var prefix = 0
    var suffix = 0
    oldBytes.withUnsafeBufferPointer { oldBuffer in
      newBytes.withUnsafeBufferPointer { newBuffer in
        func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
          a.count == b.count
            && memcmp(oldBuffer.baseAddress! + a.lowerBound, newBuffer.baseAddress! + b.lowerBound, a.count) == 0
        }
        let shorter = min(oldLines.count, newLines.count)
        while prefix < shorter && same(oldLines[prefix], newLines[prefix]) { prefix += 1 }
        while suffix < shorter - prefix
          && same(oldLines[oldLines.count - 1 - suffix], newLines[newLines.count - 1 - suffix])
        {
          suffix += 1
        }
      }
    }
    let oldMiddle = oldLines[prefix..<(oldLines.count - suffix)]
    let newMiddle = newLines[prefix..<(newLines.count - suffix)]
    guard !oldMiddle.isEmpty else { return (Array(newMiddle), []) }
    guard !newMiddle.isEmpty else { return ([], Array(oldMiddle)) }
    func hashes(_ bytes: [UInt8], _ lines: ArraySlice<Range<Int>>) -> [UInt64] {
      bytes.withUnsafeBufferPointer { buffer in lines.map { lineHash(buffer, $0) } }
    }
    let oldHashes = hashes(oldBytes, oldMiddle)
    let newHashes = hashes(newBytes, newMiddle)
    var oldSet = Set<UInt64>(minimumCapacity: oldHashes.count)
    for hash in oldHashes { oldSet.insert(hash) }
    var newSet = Set<UInt64>(minimumCapacity: newHashes.count)
    for hash in newHashes { newSet.insert(hash) }
    let added = zip(newMiddle, newHashes).filter { !oldSet.contains($0.1) }.map(\.0)
    let removed = zip(oldMiddle, oldHashes).filter { !newSet.contains($0.1) }.map(\.0)
    return (added, removed)
  }

  /// A 64-bit hash of a line's bytes (the engine's `NameHash`).
  static func lineHash(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
    NameHash.hash(UnsafeBufferPointer(rebasing: buffer[range]))
  }

  /// How the file differs from what we last wrote, if it does; and the file's digests when that told
  /// them (it hashes as recorded, or its section was hashed).
  private func driftAndDigests(_ bytes: [UInt8]?) -> (Drift?, Digests?) {
    // A file removed since (a drop-in deleted by hand) holds nothing to lose: it is written anew.
    guard let entry = ledger.entry(for: path), let current = bytes else { return (nil, nil) }
    let whole = Self.sha256(current)
    if whole == entry.sha256 { return (nil, Digests(whole: whole, section: entry.sectionSHA256)) }
    if whole == entry.pendingSHA256, let section = entry.pendingSectionSHA256 {
      return (nil, Digests(whole: whole, section: section))
    }
    if whole == entry.pendingSHA256 { return (nil, nil) }
    let section = ownership == .whole ? whole : Self.sha256(ourBytes(current))
    let drift: Drift =
      section == entry.sectionSHA256 || section == entry.pendingSectionSHA256
      ? .outsideSection(since: entry.date) : .insideSection(since: entry.date)
    return (drift, Digests(whole: whole, section: section))
  }

  /// The bytes that are ours in some content: the section's range, or everything.
  func ourBytes(_ bytes: [UInt8]) -> [UInt8] {
    switch ownership {
    case .whole: return bytes
    case .section:
      guard let location = try? ManagedSection.locate(in: bytes) else { return [] }
      return Array(bytes[location.range])
    }
  }

  // MARK: Writing

  /// The file's bytes when it is exactly as SaneHosts last wrote it with `content` (same checksum, no
  /// write left unconfirmed): applying that content again would change nothing, so nothing needs
  /// rendering or comparing. Nil otherwise.
  public func unchanged(content: String) throws(ApplyError) -> [UInt8]? {
    guard let entry = ledger.entry(for: path), entry.content == content, entry.pendingSHA256 == nil,
      let bytes = try read(), Self.sha256(bytes) == entry.sha256
    else { return nil }
    return bytes
  }

  /// Refuses what `commit` would refuse before writing, without writing (a dry run refuses where the
  /// real run would): SaneHosts' part edited by someone else, unless `force`.
  public func checkCommit(_ change: Change, force: Bool) throws(ApplyError) {
    if case .insideSection(let since) = change.drift, !force, !change.isNoOp {
      throw .sectionEdited(path: path, since: since)
    }
  }

  /// Checks, before any work, that this user can replace the file: a clear error instead of a late failure.
  public func checkWritable() throws(ApplyError) {
    let directory = (Ledger.key(path) as NSString).deletingLastPathComponent
    let isRoot = geteuid() == 0
    if access(directory, F_OK) != 0 {
      throw .missingDirectory(path: path, directory: directory)
    }
    if access(directory, W_OK) != 0 {
      throw .notPermitted(
        path: path, detail: "its directory \(directory): \(String(cString: strerror(errno)))", isRoot: isRoot)
    }
    if access(path, F_OK) == 0 && access(path, W_OK) != 0 {
      throw .notPermitted(path: path, detail: String(cString: strerror(errno)), isRoot: isRoot)
    }
  }

  /// Writes a prepared change: backs up the current file, replaces it atomically (in place when it is a
  /// mount point) and records the write. Refuses when the file changed since `prepare`, or when our part
  /// was edited by someone else and `force` is false. `content` names what the file now holds (see
  /// `Ledger.Entry.content`).
  @discardableResult
  public func commit(
    _ change: Change, profile: String?, names: Int, target: String, force: Bool = false, content: String? = nil,
    digests known: Digests? = nil
  ) throws(ApplyError) -> Outcome {
    try checkCommit(change, force: force)
    if change.isNoOp {
      // The ledger already says exactly this (and no drift means the file hashes as recorded): leave it,
      // rather than hash the whole file twice more to write the same entry.
      if change.drift == nil, let content, let entry = ledger.entry(for: path), entry.content == content,
        entry.pendingSHA256 == nil, entry.profile == profile, entry.names == names, entry.target == target
      {
        return Outcome(backup: nil, inPlace: false, wrote: false)
      }
      try record(change.after, profile: profile, names: names, target: target, content: content)
      return Outcome(backup: nil, inPlace: false, wrote: false)
    }
    try checkWritable()
    let lock = try ApplyLock.acquire(ledger.url.deletingLastPathComponent().appendingPathComponent("apply.lock"))
    defer { lock.release() }
    StagedFile.removeLeftovers(of: path)
    guard try read() == change.before else { throw .changedMeanwhile(path: path) }
    let newDigests = known ?? change.after.map(digests)
    let previous = ledger.entry(for: path)
    // Recorded first, so a process killed after the rename does not mistake its own write for someone else's.
    try record(
      change.before, profile: profile, names: names, target: target, pending: change.after, known: newDigests,
      knownBefore: change.beforeDigests)
    var backup: Backups.Backup?
    if let before = change.before {
      do {
        backup = try backups.save(before)
        if let backup, let previous { backups.saveLedgerEntry(previous, of: backup) }
      } catch {
        throw .writeFailed(path: backups.directory.path, detail: "backing up first: \(error.localizedDescription)")
      }
    }
    var inPlace = false
    if let after = change.after {
      do throws(StagedFile.Failure) {
        try StagedFile.replace(path, with: after)
      } catch  where error.isMountPoint {
        do throws(StagedFile.Failure) {
          try StagedFile.rewriteInPlace(path, with: after)
          inPlace = true
        } catch {
          throw ApplyError.from(error)
        }
      } catch {
        throw ApplyError.from(error)
      }
    } else if unlink(path) != 0 && errno != ENOENT {
      throw ApplyError.from(StagedFile.Failure(path: path, detail: String(cString: strerror(errno)), code: errno))
    }
    try record(change.after, profile: profile, names: names, target: target, content: content, known: newDigests)
    return Outcome(backup: backup, inPlace: inPlace, wrote: true)
  }

  /// Puts a backup back (after backing up the current file). The restored file is recorded as ours.
  @discardableResult
  public func restore(_ id: String, force: Bool = true) throws(ApplyError) -> (Change, Outcome) {
    guard let backup = backups.backup(id: id) else {
      throw .noSuchBackup(id: id, known: backups.list().map(\.id))
    }
    let bytes: [UInt8]
    do {
      bytes = try backups.bytes(of: backup)
    } catch {
      throw .unreadable(path: error.path, detail: error.detail)
    }
    let change = try prepare(contents: bytes)
    // What the restored file holds, read from it: `status` then shows its section, not "no section".
    let (profile, names) = Self.summary(of: bytes, ownership: ownership)
    let target = ledger.entry(for: path)?.target ?? (ownership == .section ? "hosts" : "restore")
    let outcome = try commit(change, profile: profile, names: names, target: target, force: force)
    try keepForeignEdit(restoring: bytes, recorded: backups.ledgerEntry(of: backup))
    return (change, outcome)
  }

  /// After a restore: when the backup's part (the section, or a whole drop-in) is not what SaneHosts had
  /// written when the backup was taken (`recorded`), someone else had edited it. The ledger keeps what
  /// SaneHosts wrote, so `status` still says "changed since" and the next apply needs `--force`, as
  /// before the backup was taken.
  private func keepForeignEdit(restoring bytes: [UInt8], recorded: Ledger.Entry?) throws(ApplyError) {
    guard let recorded, var entry = ledger.entry(for: path) else { return }
    let restored = digests(bytes)
    let ours = ownership == .whole ? restored.whole == recorded.sha256 : restored.section == recorded.sectionSHA256
    guard !ours else { return }
    entry.sha256 = recorded.sha256
    entry.sectionSHA256 = recorded.sectionSHA256
    entry.date = recorded.date
    entry.pendingSHA256 = nil
    entry.pendingSectionSHA256 = nil
    do {
      try ledger.record(entry, for: path)
    } catch {
      throw .writeFailed(path: ledger.url.path, detail: "recording the restore: \(error.detail)")
    }
  }

  /// The profile and the number of names a file written by SaneHosts holds, from its own lines: the
  /// section's `# Profile P: N names` header and entries for a hosts file, the `Title: SaneHosts profile P`
  /// and `Names: N` header lines of a drop-in. (nil, 0) when there is no section.
  static func summary(of bytes: [UInt8], ownership: Ownership) -> (profile: String?, names: Int) {
    let lines: [String]
    switch ownership {
    case .section:
      guard let section = (try? ManagedSection.lines(in: bytes)) ?? nil else { return (nil, 0) }
      lines = section
    case .whole:
      lines = String(decoding: bytes.prefix(1 << 16), as: UTF8.self).split(separator: "\n").map(String.init)
    }
    var profile: String?
    var names = 0
    for line in lines {
      if line.hasPrefix("# Profile "), let colon = line.firstIndex(of: ":") {
        profile = String(line[line.index(line.startIndex, offsetBy: 10)..<colon])
        let count = line[line.index(after: colon)...].drop { $0 == " " }.prefix { $0.isNumber }
        if let count = Int(count) { return (profile, count) }
      } else if let range = line.range(of: "Title: SaneHosts profile ") {
        profile = String(line[range.upperBound...])
      } else if ownership == .whole, let range = line.range(of: "Names: ") {
        names = Int(line[range.upperBound...].prefix { $0.isNumber }) ?? names
      } else if ownership == .section, !line.hasPrefix("#") {
        names += line.split(whereSeparator: { $0 == " " || $0 == "\t" }).count - 1
      }
    }
    return (profile, names)
  }

  /// The SHA-256 of some content and of our part of it.
  public struct Digests: Sendable, Hashable {
    /// Of the whole file.
    public var whole: String
    /// Of our part (the section, or the whole file when the file is ours).
    public var section: String
  }

  /// The digests a commit records for `bytes`; a caller that waits for something else (a server's
  /// checker) takes them meanwhile and hands them to `commit`. A file that is ours whole is hashed once.
  public func digests(_ bytes: [UInt8]) -> Digests {
    guard ownership == .section else {
      let whole = Self.sha256(bytes)
      return Digests(whole: whole, section: whole)
    }
    // The whole file and the section on two cores (12 MB each: 10 ms apiece).
    let section = ourBytes(bytes)
    let results = Locked<[String]>(["", ""])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let digest = Self.sha256(index == 0 ? bytes : section)
      results.withLock { $0[index] = digest }
    }
    let (whole, part) = results.withLock { ($0[0], $0[1]) }
    return Digests(whole: whole, section: part)
  }

  private func record(
    _ after: [UInt8]?, profile: String?, names: Int, target: String, pending: [UInt8]? = nil,
    content: String? = nil, known: Digests? = nil, knownBefore: Digests? = nil
  ) throws(ApplyError) {
    // `known`: the digests of the new content, taken once by a commit for both of its records;
    // `knownBefore`: those of the current content (`after` when `pending` is given), when preparing
    // learnt them.
    var entry = after.map { bytes in
      let digests = pending == nil ? (known ?? digests(bytes)) : (knownBefore ?? digests(bytes))
      var entry = Ledger.Entry(
        sha256: digests.whole, sectionSHA256: digests.section, date: Date(), profile: profile, names: names,
        target: target)
      entry.content = pending == nil ? content : nil
      return entry
    }
    // What the server last confirmed loading stays as it was: a write changes only what was written.
    if let previous = ledger.entry(for: path) {
      entry?.loadedSHA256 = previous.loadedSHA256
      entry?.loadedDate = previous.loadedDate
      entry?.primarySerial = previous.primarySerial
      entry?.history = previous.history
      entry?.recipe = previous.recipe
      // The rules held stay those of the bytes recorded: kept while the file is the same.
      if entry?.sha256 == previous.sha256 { entry?.rules = previous.rules }
    }
    if let pending {
      entry =
        entry ?? ledger.entry(for: path)
        ?? Ledger.Entry(
          sha256: "", sectionSHA256: "", date: Date(), profile: profile, names: names, target: target)
      let digests = known ?? digests(pending)
      entry?.pendingSHA256 = digests.whole
      entry?.pendingSectionSHA256 = digests.section
    }
    do {
      try ledger.record(entry, for: path)
    } catch {
      throw .writeFailed(path: ledger.url.path, detail: "recording the write: \(error.detail)")
    }
  }

  /// The hex SHA-256 of some bytes.
  public static func sha256(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).hexString
  }
}

extension ManagedSection.Problem {
  var isBody: Bool {
    if case .invalidBody = self { return true }
    return false
  }
}
