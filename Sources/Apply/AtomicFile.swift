#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a file's content all at once: readers, and a crash at any moment, see the old content or
/// the new, never a mix.
///
/// The new content goes to a temporary file in the same directory, which gets the old file's owner, group
/// and mode, is flushed to disk and renamed over the old one; then the directory is flushed.
public enum AtomicFile {
  /// Why a replacement failed; the old file is untouched in every case.
  public struct Failure: Error, Sendable, Hashable {
    /// The file.
    public var path: String
    /// What the system said.
    public var detail: String
  }

  /// Replaces `path` with `bytes`. A missing file is created with `mode`; a device, pipe or directory
  /// at `path` is refused, never replaced.
  public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(Failure) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var existing = stat()
    let exists = stat(path, &existing) == 0
    if exists && (existing.st_mode & S_IFMT) != S_IFREG {
      throw Failure(path: path, detail: "is not a regular file (a device, pipe or directory is never replaced)")
    }
    var template = Array("\(directory)/.\(base).sanehosts-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw Failure(path: path, detail: String(cString: strerror(errno))) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func fail(_ what: String) -> Failure {
      let failure = Failure(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
      close(descriptor)
      unlink(temporary)
      return failure
    }
    if exists {
      guard fchown(descriptor, existing.st_uid, existing.st_gid) == 0 || geteuid() != 0 else {
        throw fail("keeping the owner")
      }
      guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else { throw fail("keeping the mode") }
    } else {
      guard fchmod(descriptor, mode) == 0 else { throw fail("setting the mode") }
    }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 {
        if errno == EINTR { continue }
        throw fail("writing")
      }
      written += count
    }
    guard fsync(descriptor) == 0 else { throw fail("flushing") }
    guard rename(temporary, path) == 0 else { throw fail("replacing") }
    close(descriptor)
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }
}
