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

    /// Creates a failure.
    public init(path: String, detail: String) {
      self.path = path
      self.detail = detail
    }
  }

  /// The file being replaced.
  public let path: String
  /// The temporary file's descriptor, open for writing.
  public let descriptor: Int32
  private let temporary: String
  private let directory: String

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
    let slash = path.lastIndex(of: "/")
    directory = slash.map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var existing = stat()
    let exists = stat(path, &existing) == 0
    if exists && (existing.st_mode & S_IFMT) != S_IFREG {
      throw Failure(path: path, detail: "is not a regular file (a device, pipe or directory is never replaced)")
    }
    var template = Array("\(directory)/.\(base).sanehosts-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw Failure(path: path, detail: String(cString: strerror(errno))) }
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

  /// Writes all of `bytes` to the temporary file.
  public func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    var written = 0
    while written < bytes.count {
      let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("writing")
      }
      written += count
    }
  }

  /// Flushes the temporary file, renames it over the target and flushes the directory.
  public func commit() throws(Failure) {
    guard fsync(descriptor) == 0 else { throw failure("flushing") }
    guard rename(temporary, path) == 0 else { throw failure("replacing") }
    close(descriptor)
    Self.syncDirectory(directory)
  }

  /// Closes and removes the temporary file; the target is untouched.
  public func abandon() {
    close(descriptor)
    unlink(temporary)
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

  /// Flushes a directory, so a rename in it survives a crash.
  public static func syncDirectory(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// A failure naming what was being done, with the system's reason.
  private func failure(_ what: String) -> Failure {
    Failure(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
  }
}
