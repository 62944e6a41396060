#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder opened once, whose files and subfolders are reached relative to its descriptor and never
/// through a symbolic link.
///
/// Root reads and writes a data directory another user can write (the Debian package's store): any
/// name in it may be a symbolic link, a FIFO, a device or a hard link planted there. Opened through a
/// `FolderHandle`, every name is resolved inside this folder alone (`openat` with `O_NOFOLLOW`), a
/// subfolder must be a real folder and a file a regular file with one link, each owned by the folder's
/// owner (or by this process's user); anything else is a `StagedFile.Failure` naming it, and a FIFO
/// is refused before it could block a read. Files created here are given the folder's owner, so a root
/// process leaves nothing in the store its owner cannot use.
public final class FolderHandle: Sendable {
  /// The folder's path, for messages.
  public let path: String
  /// The open folder.
  public let descriptor: Int32
  /// The folder's owner: what every name in it must be owned by (or by this process's user).
  public let owner: uid_t
  /// The folder's group, given to files created here by root.
  public let group: gid_t

  private init(path: String, descriptor: Int32, owner: uid_t, group: gid_t) {
    self.path = path
    self.descriptor = descriptor
    self.owner = owner
    self.group = group
  }

  deinit { close(descriptor) }

  /// Opens the folder at `path` (the data directory: the path its user or administrator chose, followed
  /// as given); with `create`, makes it first (0700) when missing, with intermediate folders. What is
  /// inside it is then reached through `folder(_:)`, `openFile(_:)` and the rest, never through a link.
  public static func open(_ path: String, create: Bool = false) throws(StagedFile.Failure) -> FolderHandle {
    if create { makeFolders(path) }
    let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw refusal(path, errno) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw StagedFile.Failure(path: path, detail: "reading its status: \(String(cString: strerror(code)))", code: code)
    }
    return FolderHandle(path: path, descriptor: descriptor, owner: info.st_uid, group: info.st_gid)
  }

  /// The subfolder `name` (one name, no `/`), made first (0700, given this folder's owner) with `create`.
  public func folder(_ name: String, create: Bool = false) throws(StagedFile.Failure) -> FolderHandle {
    let full = try child(name)
    if create && mkdirat(descriptor, name, 0o700) == 0 { giveAway(name) }
    let opened = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard opened >= 0 else {
      let code = errno
      let isLink = status(name).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
      throw Self.refusal(full, isLink ? ELOOP : code)
    }
    var info = stat()
    guard fstat(opened, &info) == 0, isTrusted(info) else {
      close(opened)
      throw StagedFile.Failure(
        path: full, detail: "is owned by user \(info.st_uid), not by this folder's owner \(owner)")
    }
    return FolderHandle(path: full, descriptor: opened, owner: owner, group: group)
  }

  /// Opens the regular file `name` with `flags` (`O_RDONLY`, or `O_RDWR | O_CREAT`: then created with
  /// `mode` and given this folder's owner); nil when it does not exist and `flags` does not create it.
  /// A symbolic link, a FIFO, a device, a folder, a file with another link or another owner is refused.
  public func openFile(_ name: String, flags: Int32 = O_RDONLY, mode: mode_t = 0o600) throws(StagedFile.Failure)
    -> Int32?
  {
    let full = try child(name)
    // Non-blocking: opening a FIFO for reading would wait for a writer; it is refused once open.
    let opened = openat(descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode)
    guard opened >= 0 else {
      if errno == ENOENT && flags & O_CREAT == 0 { return nil }
      throw Self.refusal(full, errno)
    }
    var info = stat()
    guard fstat(opened, &info) == 0 else {
      let code = errno
      close(opened)
      throw StagedFile.Failure(path: full, detail: "reading its status: \(String(cString: strerror(code)))", code: code)
    }
    if let problem = problem(with: info) {
      close(opened)
      throw StagedFile.Failure(path: full, detail: problem, code: EPERM)
    }
    if flags & O_CREAT != 0 && info.st_uid != owner && geteuid() == 0 { _ = fchown(opened, owner, group) }
    _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
    return opened
  }

  /// A path naming `name` inside this very folder, whatever the folder's own path names by now: it is
  /// resolved through the folder's descriptor (`/proc/self/fd/N/name`). For writers that take a path (a
  /// temporary file made beside `name`, then renamed over it); `name` itself, if a link, is replaced,
  /// never followed, by such a rename. Readers use `withFile(_:_:)`.
  public func anchoredPath(_ name: String) throws(StagedFile.Failure) -> String {
    _ = try child(name)
    return "/proc/self/fd/\(descriptor)/\(name)"
  }

  /// Runs `body` with a path that names the regular file `name`, opened as `openFile` opens it (no link,
  /// FIFO, device or foreign file), for readers that take a path; nil when `name` does not exist.
  public func withFile<T>(_ name: String, _ body: (String) async throws -> T) async throws -> T? {
    guard let file = try openFile(name) else { return nil }
    defer { close(file) }
    return try await body("/proc/self/fd/\(file)")
  }

  /// `withFile(_:_:)` for a reader that does not wait.
  public func withFile<T>(_ name: String, _ body: (String) throws -> T) throws -> T? {
    guard let file = try openFile(name) else { return nil }
    defer { close(file) }
    return try body("/proc/self/fd/\(file)")
  }

  /// The whole regular file `name`, at most `limit` bytes; nil when it does not exist.
  public func read(_ name: String, limit: Int = 256 << 20) throws(StagedFile.Failure) -> [UInt8]? {
    guard let file = try openFile(name) else { return nil }
    defer { close(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw StagedFile.Failure(path: "\(path)/\(name)", detail: "reading: \(String(cString: strerror(errno)))")
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else {
        throw StagedFile.Failure(path: "\(path)/\(name)", detail: "is larger than \(limit) bytes", code: EFBIG)
      }
      bytes += chunk[0..<count]
    }
  }

  /// Replaces `name` with `bytes` atomically: a temporary file in this folder, renamed over it.
  public func replace(_ name: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(StagedFile.Failure) {
    let file = try StagedFile(replacing: name, in: self, mode: mode)
    var failure: StagedFile.Failure?
    bytes.withUnsafeBytes { buffer in
      do throws(StagedFile.Failure) { try file.append(buffer) } catch { failure = error }
    }
    if failure == nil {
      do { try file.commit() } catch { failure = error }
    }
    if let failure {
      file.abandon()
      throw failure
    }
  }

  /// Removes the file `name` (never following a link: a link is removed, not what it names); true when
  /// something was removed.
  @discardableResult
  public func remove(_ name: String) -> Bool {
    guard (try? child(name)) != nil else { return false }
    return unlinkat(descriptor, name, 0) == 0
  }

  /// The names in the folder, `.` and `..` left out.
  public func names() -> [String] {
    let copy = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard copy >= 0, let stream = fdopendir(copy) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The status of `name` without following a link; nil when it does not exist.
  public func status(_ name: String) -> stat? {
    var info = stat()
    return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
  }

  /// Flushes the folder, so a rename in it survives a crash.
  public func sync() { _ = fsync(descriptor) }

  /// Why a file with this status may not be used here; nil when it may.
  func problem(with info: stat) -> String? {
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFLNK: return "is a symbolic link (never followed in the data directory)"
    case S_IFDIR: return "is a folder, not a file"
    case S_IFIFO: return "is a FIFO, not a file (never read in the data directory)"
    default: return "is a device or socket, not a file"
    }
    guard isTrusted(info) else { return "is owned by user \(info.st_uid), not by the data directory's owner \(owner)" }
    guard info.st_nlink <= 1 else { return "has \(info.st_nlink) hard links (a file of the data directory has one)" }
    return nil
  }

  /// Whether a name with this status is owned by the folder's owner or by this process's user.
  func isTrusted(_ info: stat) -> Bool { info.st_uid == owner || info.st_uid == geteuid() }

  /// Gives a name just created here to the folder's owner, when root creates it in another user's folder.
  func giveAway(_ name: String) {
    guard geteuid() == 0, owner != 0 else { return }
    _ = fchownat(descriptor, name, owner, group, AT_SYMLINK_NOFOLLOW)
  }

  /// The full path of a child, checking it is one name.
  func child(_ name: String) throws(StagedFile.Failure) -> String {
    guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(UInt8(ascii: "/")),
      !name.utf8.contains(0)
    else {
      throw StagedFile.Failure(path: "\(path)/\(name)", detail: "is not a name inside \(path)", code: EINVAL)
    }
    return "\(path)/\(name)"
  }

  private static func refusal(_ path: String, _ code: Int32) -> StagedFile.Failure {
    let detail =
      code == ELOOP
      ? "is a symbolic link (never followed in the data directory)"
      : code == ENOTDIR ? "is not a folder" : String(cString: strerror(code))
    return StagedFile.Failure(path: path, detail: detail, code: code)
  }

  /// Makes `path` and its missing parents, 0700.
  private static func makeFolders(_ path: String) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += "/\(part)"
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return }
    }
  }
}
