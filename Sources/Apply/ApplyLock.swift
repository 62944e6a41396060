import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock held while a managed file is replaced, so two applies never interleave and the
/// leftovers of a killed one can be removed safely.
public struct ApplyLock: Sendable {
  private let descriptor: Int32

  /// Waits for and takes the lock (an `flock` on `url`, created if missing).
  public static func acquire(_ url: URL) throws(ApplyError) -> ApplyLock {
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .writeFailed(path: url.path, detail: "opening the lock: \(String(cString: strerror(errno)))")
    }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno == EINTR { continue }
      let detail = String(cString: strerror(errno))
      close(descriptor)
      throw .writeFailed(path: url.path, detail: "taking the lock: \(detail)")
    }
    return ApplyLock(descriptor: descriptor)
  }

  /// Releases the lock.
  public func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
