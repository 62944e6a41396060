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
/// and the temporary file is removed.
public enum OutputFile {
  /// Writes `path` through `body`, replacing any file there only when `body` succeeds.
  public static func write<R>(
    _ path: String, mode: mode_t = 0o644, _ body: (inout ByteSink) throws(CompileError) -> R
  ) throws(CompileError) -> R {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(directory)/.\(base).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw .unwritable(path: path, detail: String(cString: strerror(errno))) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var succeeded = false
    defer {
      close(descriptor)
      if !succeeded { unlink(temporary) }
    }
    fchmod(descriptor, mode)
    var sink = ByteSink(descriptor: descriptor, path: path)
    let result = try body(&sink)
    try sink.flush()
    guard fsync(descriptor) == 0, rename(temporary, path) == 0 else {
      throw .unwritable(path: path, detail: String(cString: strerror(errno)))
    }
    succeeded = true
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
    return result
  }
}
