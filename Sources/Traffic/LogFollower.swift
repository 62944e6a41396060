import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Follows a log file as `tail -F` does: from its end when started, the lines appended since each `poll`;
/// when the file is rotated away (another file at the path) or cut shorter, from the start of the new one.
/// A line is handed out once its line break is written.
public struct LogFollower: Sendable {
  /// The file followed.
  public let path: String
  private var offset: Int64 = 0
  private var identity: (device: UInt64, inode: UInt64)?
  private var partial: [UInt8] = []
  /// Lines handed out.
  public private(set) var lineNumber = 0

  /// Follows `path` from its current end (`fromStart`: from its first line).
  public init(path: String, fromStart: Bool = false) throws(TrafficError) {
    self.path = path
    var info = stat()
    guard stat(path, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
    identity = (UInt64(info.st_dev), UInt64(info.st_ino))
    offset = fromStart ? 0 : Int64(info.st_size)
  }

  /// Reads what was appended since the last call and calls `body` with each whole line.
  public mutating func poll(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    var info = stat()
    guard stat(path, &info) == 0 else { return }  // rotated away, not yet created again
    let current = (UInt64(info.st_dev), UInt64(info.st_ino))
    if identity.map({ $0 != current }) ?? true || Int64(info.st_size) < offset {
      identity = current
      offset = 0
      partial.removeAll()
    }
    guard Int64(info.st_size) > offset else { return }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
      guard read > 0 else { break }
      offset += Int64(read)
      var start = 0
      for index in 0..<read where chunk[index] == 0x0A {
        partial.append(contentsOf: chunk[start..<index])
        if partial.last == 0x0D { partial.removeLast() }
        lineNumber += 1
        if partial.count <= LogReader.maximumLine, !partial.contains(0) {
          partial.withUnsafeBufferPointer { body($0, lineNumber) }
        }
        partial.removeAll(keepingCapacity: true)
        start = index + 1
      }
      if read - start + partial.count <= LogReader.maximumLine {
        partial.append(contentsOf: chunk[start..<read])
      }
    }
  }
}
