import SystemExtras

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension StagedFile {
  /// When a committed file's bytes are made to survive a crash.
  public enum Durability: Sendable, Hashable {
    /// At commit: the file is flushed (`fsync`) before the rename and its directory after it.
    case immediate
    /// Later, by the caller: the commit starts the writeback and renames, and `StagedFile.flush(_:)`
    /// makes the file durable before anything that must survive a crash refers to it.
    ///
    /// For new files under names of their own, which only a later transaction refers to. A run that
    /// writes many (an update: a copy and a block set file per source) then waits for the disk once, at
    /// the end, not four times a file on the threads that parse: the 10-list first update spent 30–40 ms
    /// of its 0.21 s in 42 `fsync` calls.
    case deferred
  }

  /// Readies an open file's bytes for a rename: flushes them (`immediate`), or starts their writeback
  /// (`deferred`). A rename that reached the disk before the bytes would leave an empty file.
  public static func settle(_ descriptor: Int32, _ durability: Durability) throws(Failure) {
    switch durability {
    case .immediate:
      while fsync(descriptor) != 0 {
        if errno == EINTR { continue }
        throw Failure(path: "", detail: "flushing: \(String(cString: strerror(errno)))", code: errno)
      }
    case .deferred:
      startWriteback(descriptor)
    }
  }

  /// Makes files committed with `.deferred` durability survive a crash: flushes each file, then each
  /// directory they are in (once), so their names survive too.
  public static func flush(_ paths: some Sequence<String>) throws(Failure) {
    var directories: [String] = []
    for path in paths {
      try flushOne(path, opening: O_RDONLY | O_CLOEXEC)
      let folder = Self.directory(of: path)
      if !directories.contains(folder) { directories.append(folder) }
    }
    for directory in directories {
      try flushOne(directory, opening: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
  }

  /// Opens `path` and flushes it with `fsync`.
  static func flushOne(_ path: String, opening flags: Int32) throws(Failure) {
    let descriptor = open(path, flags)
    guard descriptor >= 0 else {
      throw Failure(path: path, detail: "opening to flush: \(String(cString: strerror(errno)))", code: errno)
    }
    defer { close(descriptor) }
    do {
      try settle(descriptor, .immediate)
    } catch {
      throw Failure(path: path, detail: error.detail, code: error.code)
    }
  }

  /// The directory holding `path` ("." for a bare name).
  static func directory(of path: String) -> String {
    let slash = path.lastIndex(of: "/")
    return slash.map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
  }
}
