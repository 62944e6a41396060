import Files
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension CompletedDownload {
  /// Moves the downloaded file to `destination`, replacing any file there atomically.
  ///
  /// Readers of `destination` see either the old file or the new one, never a mix. The document is
  /// flushed to disk before it is renamed into place, and the directory after, unless `durability` is
  /// `.deferred` (the caller then flushes it with `StagedFile.flush(_:)`). Across file systems the
  /// document is first copied next to the destination, then renamed over it. A destination that exists
  /// and is not a regular file (`/dev/null`, a FIFO) is written to in place: renaming over it would
  /// replace the device itself.
  public func install(at destination: URL, durability: StagedFile.Durability = .immediate) throws(DownloadError) {
    let target = destination.path
    var status = stat()
    if stat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG, (status.st_mode & S_IFMT) != S_IFDIR {
      return try writeInPlace(target)
    }
    try prepare(durability)
    if rename(fileURL.path, target) == 0 {
      if durability == .immediate { StagedFile.syncDirectory(destination.deletingLastPathComponent().path) }
      return
    }
    guard errno == EXDEV else { throw .fileSystem(path: target, detail: String(cString: strerror(errno))) }

    // Another file system: copy into a staged file beside the destination, then rename it into place.
    let staged: StagedFile
    do {
      staged = try StagedFile(replacing: target)
    } catch {
      throw .fileSystem(path: target, detail: error.detail)
    }
    do {
      let source = open(fileURL.path, O_RDONLY | O_CLOEXEC)
      guard source >= 0 else {
        throw DownloadError.fileSystem(path: fileURL.path, detail: String(cString: strerror(errno)))
      }
      defer { close(source) }
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
      defer { buffer.deallocate() }
      while case let count = read(source, buffer.baseAddress, buffer.count), count != 0 {
        guard count > 0 else {
          if errno == EINTR { continue }
          throw DownloadError.fileSystem(path: fileURL.path, detail: String(cString: strerror(errno)))
        }
        try staged.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      }
      try staged.commit(durability: durability)
    } catch let error as DownloadError {
      staged.abandon()
      throw error
    } catch let error as StagedFile.Failure {
      staged.abandon()
      throw .fileSystem(path: target, detail: error.detail)
    } catch {
      staged.abandon()
      throw .fileSystem(path: target, detail: String(describing: error))
    }
    unlink(fileURL.path)
  }

  /// Flushes the document to disk (`immediate`), or starts its writeback (`deferred`), before it is
  /// renamed into place (`StagedFile.settle`).
  private func prepare(_ durability: StagedFile.Durability) throws(DownloadError) {
    let descriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .fileSystem(path: fileURL.path, detail: String(cString: strerror(errno))) }
    defer { close(descriptor) }
    do {
      try StagedFile.settle(descriptor, durability)
    } catch {
      throw .fileSystem(path: fileURL.path, detail: error.detail)
    }
  }

  /// Copies the document into a device or pipe, then removes the temporary file.
  private func writeInPlace(_ target: String) throws(DownloadError) {
    defer { unlink(fileURL.path) }
    let output = open(target, O_WRONLY | O_CLOEXEC)
    guard output >= 0 else { throw .fileSystem(path: target, detail: String(cString: strerror(errno))) }
    defer { close(output) }
    let input = open(fileURL.path, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw .fileSystem(path: fileURL.path, detail: String(cString: strerror(errno))) }
    defer { close(input) }
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count == 0 { return }
      if count < 0 {
        if errno == EINTR { continue }
        throw .fileSystem(path: fileURL.path, detail: String(cString: strerror(errno)))
      }
      var written = 0
      while written < count {
        let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
        if result < 0 {
          if errno == EINTR { continue }
          throw .fileSystem(path: target, detail: String(cString: strerror(errno)))
        }
        written += result
      }
    }
  }

}
