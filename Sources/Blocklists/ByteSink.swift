import Files

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer of bytes to a file descriptor, or to memory.
public struct ByteSink: ~Copyable {
  private var buffer: [UInt8] = []
  private let descriptor: Int32
  private let capacity: Int
  /// Bytes after which written data is handed to the disk early (0: never).
  private let writebackStep: Int
  /// Bytes already handed to the disk early.
  private var writtenBack = 0
  /// Where the bytes go, for error messages.
  public let path: String
  /// Bytes written so far.
  public private(set) var byteCount = 0
  /// Everything written, when the sink writes to memory.
  public private(set) var memory: [UInt8] = []

  /// A sink that writes to an open file descriptor, flushing every `capacity` bytes.
  ///
  /// With `startsWriteback`, every 8 MiB written are handed to the disk at once (see
  /// `StagedFile.startWriteback`), so a file that is flushed with `fsync` at the end waits less.
  public init(descriptor: Int32, path: String, capacity: Int = 1 << 20, startsWriteback: Bool = false) {
    self.descriptor = descriptor
    self.path = path
    self.capacity = capacity
    writebackStep = startsWriteback ? 8 << 20 : 0
    buffer.reserveCapacity(capacity)
  }

  /// A sink that keeps everything in memory.
  public init() {
    descriptor = -1
    path = "memory"
    capacity = 1 << 16
    writebackStep = 0
  }

  /// Appends bytes.
  @inline(__always)
  public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(CompileError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { try flush() }
  }

  /// Appends text.
  public mutating func write(_ text: String) throws(CompileError) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= capacity { try flush() }
  }

  /// Appends bytes from an array.
  @inline(__always)
  public mutating func write(_ bytes: [UInt8]) throws(CompileError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { try flush() }
  }

  /// Appends a single byte.
  @inline(__always)
  public mutating func write(byte: UInt8) {
    buffer.append(byte)
  }

  /// Writes out what is buffered.
  public mutating func flush() throws(CompileError) {
    byteCount += buffer.count
    if descriptor < 0 {
      memory.append(contentsOf: buffer)
      buffer.removeAll(keepingCapacity: true)
      return
    }
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 {
        if errno == EINTR { continue }
        throw .unwritable(path: path, detail: String(cString: strerror(errno)))
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
    if writebackStep > 0 && byteCount - writtenBack >= writebackStep {
      StagedFile.startWriteback(descriptor, offset: writtenBack, count: byteCount - writtenBack)
      writtenBack = byteCount
    }
  }
}
