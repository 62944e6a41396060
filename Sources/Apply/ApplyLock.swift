import Files
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

  /// Waits for and takes the lock (an `flock` on `url`, created if missing). The file is opened inside
  /// its folder without following a link (`FolderHandle`): a lock file that is a symbolic link, a FIFO
  /// or another user's file is refused, so a planted link cannot make root create a file elsewhere.
  public static func acquire(_ url: URL) throws(ApplyError) -> ApplyLock {
    let descriptor: Int32
    do {
      let folder = try FolderHandle.open(url.deletingLastPathComponent().path, create: true)
      descriptor = try folder.openFile(url.lastPathComponent, flags: O_CREAT | O_RDWR, mode: 0o600) ?? -1
    } catch {
      throw .writeFailed(path: url.path, detail: "opening the lock: \(error.path) \(error.detail)")
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
