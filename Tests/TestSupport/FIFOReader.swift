import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A named pipe in a directory with `cat` reading it into a file, to test writers that must not replace
/// a device or pipe (as `/dev/null` is) with a regular file.
public struct FIFOReader {
  /// The pipe's path.
  public let path: String
  private let received: URL
  private let reader: Process

  /// Makes the pipe `name` in `directory` and starts reading it.
  public init(in directory: TemporaryDirectory, name: String = "pipe") throws {
    path = directory.file(name).path
    guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
    received = directory.file("\(name).received")
    FileManager.default.createFile(atPath: received.path, contents: nil)
    reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/cat")
    reader.arguments = [path]
    reader.standardOutput = try FileHandle(forWritingTo: received)
    try reader.run()
  }

  /// Waits for the writer to close the pipe and returns what came through.
  public func finish() throws -> String {
    reader.waitUntilExit()
    return try String(contentsOf: received, encoding: .utf8)
  }

  /// Whether the path is still a named pipe.
  public var isStillFIFO: Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
  }
}
