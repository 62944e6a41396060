import Files
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on the data directory for the length of an update, so two updates never interleave.
///
/// An advisory `flock` on `update.lock`: the kernel releases it when the process exits, however it exits,
/// so a crash never leaves a stale lock. The file holds the owner's process id for the error message
/// while the lock is held, and is emptied when it is released.
public final class UpdateLock {
  private let descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit {
    // Released: the file names no owner any more (a finished or cancelled update leaves no pid behind).
    _ = ftruncate(descriptor, 0)
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// Takes the lock; throws `.updateRunning` at once if another process holds it, unless `wait` is set.
  public static func acquire(_ directory: DataDirectory, wait: Bool = false) throws(StoreError) -> UpdateLock {
    let path = directory.updateLock.path
    // Inside the data directory, never through a link: a planted link or FIFO is refused by name.
    let descriptor: Int32
    do {
      descriptor =
        try FolderHandle.open(directory.url.path).openFile("update.lock", flags: O_RDWR | O_CREAT, mode: 0o600) ?? -1
    } catch {
      throw .cannotOpen(path: path, detail: error.path == path ? error.detail : "\(error.path) \(error.detail)")
    }
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK, wait else {
        let owner = Self.owner(descriptor)
        close(descriptor)
        throw .updateRunning(pid: owner, lockFile: path)
      }
      while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }
    let text = Array("\(getpid())\n".utf8)
    _ = ftruncate(descriptor, 0)
    _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    return UpdateLock(descriptor: descriptor)
  }

  private static func owner(_ descriptor: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
    guard count > 0 else { return nil }
    return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
