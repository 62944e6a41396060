import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension DownloadManager {
  /// A local file's validator: its inode, size and modification time to the nanosecond.
  static func fileTag(_ info: stat) -> String {
    "\"file-\(info.st_ino)-\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\""
  }

  /// Copies a local file into `file` with the same events as a remote download.
  ///
  /// The file's modification time stands in for `Last-Modified`, and its identity (inode, size,
  /// modification time to the nanosecond) for an `ETag`: when the request's ETag equals it, the result
  /// is `notModified` and nothing is read. (`Last-Modified` alone has one-second steps: a file rewritten
  /// within the second of the last update looked unchanged.)
  nonisolated func transferFile(
    _ path: String, _ request: DownloadRequest, into file: PartialFile,
    emit: @escaping @Sendable (DownloadEvent) -> Void
  ) async throws -> DownloadEvent {
    emit(.connecting(attempt: 1))
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw DownloadError.fileNotFound(path: path)
    }
    let modified = HTTPDate.string(from: Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
    let tag = Self.fileTag(info)
    if request.validators.etag == tag {
      return .notModified(NotModified(finalURL: request.url, validators: Validators(etag: tag, lastModified: modified)))
    }
    let size = Int64(info.st_size)
    guard size <= configuration.maximumBytes else {
      throw DownloadError.tooLarge(url: path, limit: configuration.maximumBytes, announced: size)
    }

    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else {
      throw DownloadError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
    defer { close(source) }
    var throttle = ProgressThrottle(clock: clock, interval: configuration.progressInterval)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      try Task.checkCancellation()
      let count = read(source, buffer.baseAddress, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw DownloadError.fileSystem(path: path, detail: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      guard file.byteCount + Int64(count) <= configuration.maximumBytes else {
        throw DownloadError.tooLarge(url: path, limit: configuration.maximumBytes, announced: nil)
      }
      try file.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      if throttle.shouldSend(file.byteCount) {
        emit(.progress(DownloadProgress(bytesReceived: file.byteCount, totalBytes: size)))
      }
      await Task.yield()
    }
    if throttle.needsFinal(file.byteCount) {
      emit(.progress(DownloadProgress(bytesReceived: file.byteCount, totalBytes: file.byteCount)))
    }
    let digest = try file.finish()
    return .completed(
      CompletedDownload(
        fileURL: file.url, finalURL: request.url, statusCode: 200, etag: tag, lastModified: modified,
        byteCount: file.byteCount, sha256: digest, attempts: 1))
  }
}
