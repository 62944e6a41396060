import Files

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file atomically through a `StagedFile`: a temporary file beside it is filled, flushed, then
/// renamed over it, keeping an existing file's owner and mode.
///
/// Readers see the old file or the new one, never a part; if writing fails the old file is untouched
/// and the temporary file is removed. A destination that exists and is not a regular file (`/dev/null`,
/// `/dev/stdout`, a FIFO) is written to directly: renaming over it would replace the device itself.
public enum OutputFile {
  /// The size past which a compile's output is written with direct I/O (`directAfter`): 16 MiB, above
  /// a typical hosts file (12 MB for 400,000 names), which its consumers read at once.
  public static let largeFile = 16 << 20

  /// Writes `path` through `body`, replacing any file there only when `body` succeeds.
  ///
  /// With `directAfter` above 0, a file growing past that many bytes gets the rest written past the
  /// page cache (see `ByteSink`): for large outputs that nothing reads back at once. With `.deferred`
  /// durability the caller flushes the file later (`StagedFile.flush(_:)`).
  public static func write<R>(
    _ path: String, mode: mode_t = 0o644, directAfter: Int = 0, durability: StagedFile.Durability = .immediate,
    _ body: (inout ByteSink) throws(CompileError) -> R
  ) throws(CompileError) -> R {
    let target = try Target(path, mode: mode)
    var sink = ByteSink(
      descriptor: target.descriptor, path: path, startsWriteback: target.isStaged,
      directAfter: target.isStaged ? directAfter : 0)
    do {
      let result = try body(&sink)
      try target.commit(&sink, durability: durability)
      return result
    } catch {
      target.abandon()
      throw error
    }
  }

  /// Writes `path` through an asynchronous `body`, replacing any file there only when `body` succeeds.
  public static func write<R>(
    _ path: String, mode: mode_t = 0o644, directAfter: Int = 0, durability: StagedFile.Durability = .immediate,
    _ body: (inout ByteSink) async throws(CompileError) -> R
  ) async throws(CompileError) -> R {
    let target = try Target(path, mode: mode)
    var sink = ByteSink(
      descriptor: target.descriptor, path: path, startsWriteback: target.isStaged,
      directAfter: target.isStaged ? directAfter : 0)
    do {
      let result = try await body(&sink)
      try target.commit(&sink, durability: durability)
      return result
    } catch {
      target.abandon()
      throw error
    }
  }

  /// A staged file, or a device written in place.
  private enum Target {
    case staged(StagedFile)
    case device(Int32)

    init(_ path: String, mode: mode_t) throws(CompileError) {
      if StagedFile.isSpecial(path) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unwritable(path: path, detail: String(cString: strerror(errno))) }
        self = .device(descriptor)
        return
      }
      do {
        self = .staged(try StagedFile(replacing: path, mode: mode))
      } catch {
        throw .unwritable(path: path, detail: error.detail)
      }
    }

    /// Whether this is a staged file, flushed to disk at commit.
    var isStaged: Bool {
      if case .staged = self { return true }
      return false
    }

    var descriptor: Int32 {
      switch self {
      case .staged(let file): file.descriptor
      case .device(let descriptor): descriptor
      }
    }

    /// Flushes the sink, then renames the staged file into place (or closes the device).
    func commit(_ sink: inout ByteSink, durability: StagedFile.Durability) throws(CompileError) {
      try sink.finish()
      switch self {
      case .staged(let file):
        do {
          try file.commit(durability: durability)
        } catch {
          throw .unwritable(path: file.path, detail: error.detail)
        }
      case .device(let descriptor):
        close(descriptor)
      }
    }

    /// Removes the staged file (or closes the device).
    func abandon() {
      switch self {
      case .staged(let file): file.abandon()
      case .device(let descriptor): close(descriptor)
      }
    }
  }
}
