import SystemExtras

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file replaced all at once: written to a temporary file beside the target, then renamed over it.
///
/// Readers, and a crash at any moment, see the old content or the new, never a mix. The temporary file
/// gets the existing target's owner, group and mode (or `mode` for a new file), is flushed with `fsync`
/// before the rename, and the directory is flushed after it. When `append` or `commit` fails, call
/// `abandon()` (once): it removes the temporary file and leaves the target untouched. Every atomic write
/// of SaneHosts goes through here.
public struct StagedFile: Sendable {
  /// Why staging or committing failed; the target is untouched.
  public struct Failure: Error, Sendable, Hashable {
    /// The file concerned.
    public var path: String
    /// What went wrong, with the system's words.
    public var detail: String
    /// The system's error number (`errno`), 0 when none applies.
    public var code: Int32

    /// Creates a failure.
    public init(path: String, detail: String, code: Int32 = 0) {
      self.path = path
      self.detail = detail
      self.code = code
    }

    /// Whether the target could not be replaced because it is a mount point (`EBUSY`), as `/etc/hosts`
    /// is in most containers: only an in-place rewrite can change it.
    public var isMountPoint: Bool { code == EBUSY }
  }

  /// The file being replaced (its name in `folder`, when staged in one).
  public let path: String
  /// The temporary file's descriptor, open for writing.
  public let descriptor: Int32
  let temporary: String
  private let directory: String
  /// The folder `path` and `temporary` are names in, when staged in one (`init(replacing:in:mode:)`).
  let folder: FolderHandle?
  /// The target as it was, held open when it is large (-1 otherwise): see `releaseReplaced()`.
  let replaced: Int32
  /// Targets from this size on are held open until replaced (16 MiB).
  static let largeTarget = 16 << 20

  /// Whether `path` exists and is something other than a regular file or a directory (a device such
  /// as `/dev/null`, a FIFO, a socket): renaming over it would replace the device itself.
  public static func isSpecial(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    let kind = status.st_mode & S_IFMT
    return kind != S_IFREG && kind != S_IFDIR
  }

  /// Creates the temporary file beside `path`. A directory or special file at `path` is refused.
  public init(replacing path: String, mode: mode_t = 0o644) throws(Failure) {
    folder = nil
    directory = Self.directory(of: path)
    let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    var existing = stat()
    let exists = stat(path, &existing) == 0
    if exists && (existing.st_mode & S_IFMT) != S_IFREG {
      throw Failure(path: path, detail: "is not a regular file (a device, pipe or directory is never replaced)")
    }
    replaced =
      exists && Int(existing.st_size) >= Self.largeTarget ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1
    var template = Array("\(directory)/.\(base).sanehosts-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      let failure = Failure(path: path, detail: String(cString: strerror(errno)), code: errno)
      if replaced >= 0 { close(replaced) }
      throw failure
    }
    self.path = path
    self.descriptor = descriptor
    temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var problem: String?
    if exists {
      // Only root can give a file away; others keep their own ownership, as any editor would.
      if geteuid() == 0 && fchown(descriptor, existing.st_uid, existing.st_gid) != 0 {
        problem = "keeping the owner"
      } else if fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
        problem = "keeping the mode"
      } else if !Self.copySecurityLabel(from: path, to: descriptor) {
        problem = "keeping the SELinux label"
      }
    } else if fchmod(descriptor, mode) != 0 {
      problem = "setting the mode"
    }
    if let problem {
      let failure = failure(problem)
      abandon()
      throw failure
    }
  }

  /// Creates the temporary file for `name` inside `folder`, both reached through the folder's descriptor
  /// and never through a symbolic link. An existing `name` must be a regular file the folder's owner owns
  /// (`FolderHandle`); a new file gets `mode` and the folder's owner.
  public init(replacing name: String, in folder: FolderHandle, mode: mode_t = 0o600) throws(Failure) {
    let full = try folder.child(name)
    if let existing = folder.status(name), let problem = folder.problem(with: existing) {
      throw Failure(path: full, detail: problem, code: EPERM)
    }
    var descriptor: Int32 = -1
    var temporary = ""
    for _ in 0..<100 where descriptor < 0 {
      temporary = ".\(name).sanehosts-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
      descriptor = openat(folder.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
      if descriptor < 0 && errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw Failure(path: full, detail: String(cString: strerror(errno)), code: errno) }
    self.folder = folder
    self.path = name
    self.descriptor = descriptor
    self.temporary = temporary
    directory = folder.path
    replaced = -1
    if geteuid() == 0 && folder.owner != 0 { _ = fchown(descriptor, folder.owner, folder.group) }
    if fchmod(descriptor, mode) != 0 {
      let failure = Failure(path: full, detail: "setting the mode: \(String(cString: strerror(errno)))", code: errno)
      abandon()
      throw failure
    }
  }

  /// Writes all of `bytes` to the temporary file.
  public func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    let code = Self.writeAll(bytes, to: descriptor)
    if code != 0 {
      errno = code
      throw failure("writing")
    }
  }

  /// Writes every byte to `descriptor` at its position, again after an interruption; returns 0, or the
  /// `errno` of the failure.
  public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }

  /// Flushes the temporary file (or only starts its writeback, when `deferred`), renames it over the
  /// target and, when `immediate`, flushes the directory.
  public func commit(durability: Durability = .immediate) throws(Failure) {
    do {
      try Self.settle(descriptor, durability)
    } catch {
      throw Failure(path: path, detail: error.detail, code: error.code)
    }
    if let folder {
      guard renameat(folder.descriptor, temporary, folder.descriptor, path) == 0 else { throw failure("replacing") }
    } else {
      guard rename(temporary, path) == 0 else { throw failure("replacing") }
    }
    close(descriptor)
    releaseReplaced()
    if durability == .immediate {
      if let folder { folder.sync() } else { Self.syncDirectory(directory) }
    }
  }

  /// Closes and removes the temporary file; the target is untouched.
  public func abandon() {
    close(descriptor)
    if let folder { unlinkat(folder.descriptor, temporary, 0) } else { unlink(temporary) }
    if replaced >= 0 { close(replaced) }
  }

  /// Lets go of the replaced target, once renamed over: its last descriptor is closed on a thread of
  /// its own, since that close is when the file system frees its blocks. Renaming over a 161 MB file
  /// spent 22–26 ms in `rename` freeing them (ext4 mounted with `discard`); held open, the rename takes
  /// 0.1 ms and the freeing overlaps what the caller does next.
  func releaseReplaced() {
    if replaced >= 0 { close_in_background(replaced) }
  }

  /// Replaces `path` with `bytes` in one step.
  public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(Failure) {
    let file = try StagedFile(replacing: path, mode: mode)
    var failure: Failure?
    bytes.withUnsafeBytes { buffer in
      do throws(Failure) { try file.append(buffer) } catch { failure = error }
    }
    if failure == nil {
      do { try file.commit() } catch { failure = error }
    }
    if let failure {
      file.abandon()
      throw failure
    }
  }

  /// The extended attribute holding a file's SELinux label.
  public static let securityLabelAttribute = "security.selinux"

  /// Gives the temporary file the original's SELinux label, if it has one. False when a label exists
  /// but could not be copied (a file without one, or a system without labels, is fine).
  static func copySecurityLabel(from path: String, to descriptor: Int32) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 1024)
    let size = getxattr(path, securityLabelAttribute, &buffer, buffer.count)
    guard size > 0 else { return true }
    return fsetxattr(descriptor, securityLabelAttribute, buffer, size, 0) == 0
  }

  /// Rewrites a file in place: for a target that cannot be renamed over (a mount point).
  ///
  /// Not atomic: a crash part-way leaves a mix, so callers take a backup first. The file keeps its
  /// inode, owner, mode and label; the new bytes are written, the rest cut off, then flushed.
  public static func rewriteInPlace(_ path: String, with bytes: [UInt8]) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      throw Failure(path: path, detail: "opening: \(String(cString: strerror(errno)))", code: errno)
    }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes {
        pwrite(descriptor, $0.baseAddress! + written, bytes.count - written, off_t(written))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, detail: "writing: \(String(cString: strerror(errno)))", code: errno)
      }
      written += count
    }
    guard ftruncate(descriptor, off_t(bytes.count)) == 0, fsync(descriptor) == 0 else {
      throw Failure(path: path, detail: "finishing: \(String(cString: strerror(errno)))", code: errno)
    }
  }

  /// Removes temporary files a killed writer left beside `path`. Call it only while holding a lock that
  /// every writer of `path` takes, or a live writer's file could go.
  public static func removeLeftovers(of path: String) {
    let directory = Self.directory(of: path)
    let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    let prefix = ".\(base).sanehosts-"
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    var leftovers: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 { leftovers.append(name) }
    }
    for name in leftovers { unlink("\(directory)/\(name)") }
  }

  /// Flushes a directory, so a rename in it survives a crash.
  public static func syncDirectory(_ path: String) {
    try? flushOne(path, opening: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  }

  /// A failure naming what was being done, with the system's reason.
  func failure(_ what: String) -> Failure {
    Failure(
      path: folder.map { "\($0.path)/\(path)" } ?? path, detail: "\(what): \(String(cString: strerror(errno)))",
      code: errno)
  }
}
