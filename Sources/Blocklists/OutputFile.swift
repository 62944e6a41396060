#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file atomically: a temporary file beside it is filled, flushed, then renamed over it.
///
/// Readers see the old file or the new one, never a part; if writing fails the old file is untouched
/// and the temporary file is removed. A destination that exists and is not a regular file (`/dev/null`,
/// `/dev/stdout`, a FIFO) is written to directly: renaming over it would replace the device itself.
public enum OutputFile {
  /// Writes `path` through `body`, replacing any file there only when `body` succeeds.
  public static func write<R>(
    _ path: String, mode: mode_t = 0o644, _ body: (inout ByteSink) throws(CompileError) -> R
  ) throws(CompileError) -> R {
    let target = try Target(path, mode: mode)
    var sink = ByteSink(descriptor: target.descriptor, path: path)
    do {
      let result = try body(&sink)
      try target.commit(&sink)
      return result
    } catch {
      target.abandon()
      throw error
    }
  }

  /// Writes `path` through an asynchronous `body`, replacing any file there only when `body` succeeds.
  public static func write<R>(
    _ path: String, mode: mode_t = 0o644, _ body: (inout ByteSink) async throws(CompileError) -> R
  ) async throws(CompileError) -> R {
    let target = try Target(path, mode: mode)
    var sink = ByteSink(descriptor: target.descriptor, path: path)
    do {
      let result = try await body(&sink)
      try target.commit(&sink)
      return result
    } catch {
      target.abandon()
      throw error
    }
  }

  /// A temporary file beside the destination, renamed over it on commit.
  private struct Target {
    let path: String
    let directory: String
    let temporary: String
    let descriptor: Int32
    /// Whether the destination is a device or pipe, written in place.
    let direct: Bool

    init(_ path: String, mode: mode_t) throws(CompileError) {
      var status = stat()
      if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG, (status.st_mode & S_IFMT) != S_IFDIR {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unwritable(path: path, detail: String(cString: strerror(errno))) }
        self.path = path
        self.directory = ""
        self.temporary = ""
        self.descriptor = descriptor
        self.direct = true
        return
      }
      direct = false
      let slash = path.lastIndex(of: "/")
      let directory = slash.map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
      let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
      var template = Array("\(directory)/.\(base).XXXXXX".utf8CString)
      let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard descriptor >= 0 else { throw .unwritable(path: path, detail: String(cString: strerror(errno))) }
      fchmod(descriptor, mode)
      self.path = path
      self.directory = directory
      self.descriptor = descriptor
      temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Flushes the sink and the file, renames it into place and syncs the directory.
    func commit(_ sink: inout ByteSink) throws(CompileError) {
      do {
        try sink.flush()
      } catch {
        abandon()
        throw error
      }
      if direct {
        close(descriptor)
        return
      }
      guard fsync(descriptor) == 0, rename(temporary, path) == 0 else {
        let detail = String(cString: strerror(errno))
        abandon()
        throw .unwritable(path: path, detail: detail)
      }
      close(descriptor)
      let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if directoryDescriptor >= 0 {
        fsync(directoryDescriptor)
        close(directoryDescriptor)
      }
    }

    /// Closes and removes the temporary file.
    func abandon() {
      close(descriptor)
      if !direct { unlink(temporary) }
    }
  }
}
