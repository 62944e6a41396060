import Crypto
import Files
import Foundation
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary file being filled by one transfer, hashed as it is written.
///
/// Owned by a single task. Until `finish()` succeeds, `discard()` (or deinit) removes the file.
final class PartialFile {
  /// The file's location.
  let url: URL
  /// Bytes written so far.
  private(set) var byteCount: Int64 = 0
  private var descriptor: Int32
  private var hasher = SHA256()
  private var kept = false

  /// Creates (or truncates) the file, readable and writable by the owner only.
  init(at url: URL) throws(DownloadError) {
    self.url = url
    descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .fileSystem(path: url.path, detail: Self.lastError()) }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if !kept { unlink(url.path) }
  }

  /// Removes the file now, not when the last reference goes (the HTTP stack may hold one a little
  /// longer than the transfer, and a cancelled command may exit before that).
  func discard() {
    guard !kept else { return }
    kept = true
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    unlink(url.path)
  }

  /// Appends the readable bytes of a buffer.
  func append(_ buffer: ByteBuffer) throws(DownloadError) {
    try buffer.withUnsafeReadableBytes { (bytes) throws(DownloadError) in try append(bytes) }
  }

  /// Appends raw bytes.
  func append(_ bytes: UnsafeRawBufferPointer) throws(DownloadError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    hasher.update(bufferPointer: bytes)
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw .fileSystem(path: url.path, detail: Self.lastError())
      }
      offset += written
    }
    byteCount += Int64(bytes.count)
  }

  /// Empties the file to start the document again (the server ignored a range request).
  func truncate() throws(DownloadError) {
    guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
      throw .fileSystem(path: url.path, detail: Self.lastError())
    }
    hasher = SHA256()
    byteCount = 0
  }

  /// Closes the file, hands it to the caller, and returns its SHA-256 in hex.
  ///
  /// Not flushed to disk: a temporary file needs no flush, and the caller that keeps it does that
  /// (`CompletedDownload.install(at:durability:)`).
  func finish() throws(DownloadError) -> String {
    // Closed even when close fails (Linux frees the descriptor either way): never closed twice.
    let closed = close(descriptor) == 0
    descriptor = -1
    guard closed else { throw .fileSystem(path: url.path, detail: Self.lastError()) }
    kept = true
    return hasher.finalize().hexString
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}
