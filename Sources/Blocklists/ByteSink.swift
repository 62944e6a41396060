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

  /// Appends bytes from an array; one at least as large as the buffer goes straight out (see
  /// `write(contentsOf:)`).
  @inline(__always)
  public mutating func write(_ bytes: [UInt8]) throws(CompileError) {
    guard bytes.count >= capacity else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= capacity { try flush() }
      return
    }
    try write(contentsOf: bytes)
  }

  /// Appends an array's bytes as they are in memory, written straight to the file after what is
  /// buffered, never copied into the buffer: a block set's 125 MB array of names written through the
  /// buffer (after a copy as `[UInt8]`) had added 250 MB to an update's peak.
  public mutating func write<T: FixedWidthInteger>(contentsOf values: [T]) throws(CompileError) {
    try flush()
    let count = values.count * MemoryLayout<T>.size
    byteCount += count
    if descriptor < 0 {
      memory.append(contentsOf: values.withUnsafeBytes { Array($0) })
      return
    }
    let descriptor = descriptor
    let failure = values.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
    if failure != 0 { throw .unwritable(path: path, detail: String(cString: strerror(failure))) }
    startWritebackIfDue()
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
    let descriptor = descriptor
    let failure = buffer.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
    if failure != 0 { throw .unwritable(path: path, detail: String(cString: strerror(failure))) }
    buffer.removeAll(keepingCapacity: true)
    startWritebackIfDue()
  }

  /// Hands what was written since the last time to the disk, every `writebackStep` bytes.
  private mutating func startWritebackIfDue() {
    if writebackStep > 0 && byteCount - writtenBack >= writebackStep {
      StagedFile.startWriteback(descriptor, offset: writtenBack, count: byteCount - writtenBack)
      writtenBack = byteCount
    }
  }

  /// Writes every byte to `descriptor`; returns 0, or the `errno` of the failure.
  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }
}
