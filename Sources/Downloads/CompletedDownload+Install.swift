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
  /// Readers of `destination` see either the old file or the new one, never a mix. Across file
  /// systems the document is first copied next to the destination, flushed, then renamed over it.
  public func install(at destination: URL) throws(DownloadError) {
    let target = destination.path
    if rename(fileURL.path, target) == 0 {
      Self.syncDirectory(of: destination)
      return
    }
    guard errno == EXDEV else { throw .fileSystem(path: target, detail: String(cString: strerror(errno))) }

    let staging = destination.deletingLastPathComponent()
      .appending(path: ".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      let copy = try PartialFile(at: staging)
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
        try copy.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      }
      _ = try copy.finish()
      guard rename(staging.path, target) == 0 else {
        throw DownloadError.fileSystem(path: target, detail: String(cString: strerror(errno)))
      }
    } catch let error as DownloadError {
      unlink(staging.path)
      throw error
    } catch {
      unlink(staging.path)
      throw .fileSystem(path: target, detail: String(describing: error))
    }
    unlink(fileURL.path)
    Self.syncDirectory(of: destination)
  }

  /// Flushes a directory entry change to disk.
  private static func syncDirectory(of file: URL) {
    let directory = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directory >= 0 else { return }
    fsync(directory)
    close(directory)
  }
}
