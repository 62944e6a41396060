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
  /// Bytes after which the rest of the file is written past the page cache (0: never).
  private var directAfter: Int
  /// Bytes handed to the file so far (or, with direct I/O, to `direct`).
  private var emitted = 0
  /// With direct I/O on: the aligned buffer being filled, whose whole 2 MiB are written past the page
  /// cache by `writer` while the other buffer (`spareDirect`) is filled.
  private var direct: UnsafeMutableRawPointer?
  private var directCount = 0
  /// The other aligned buffer: the one being written, or written already (nil before the first write).
  private var spareDirect: UnsafeMutableRawPointer?
  /// The thread that writes full aligned buffers, while direct I/O is on.
  private var writer: DirectWriter?
  /// Whether direct I/O was tried and refused (by the file system), so it is not tried again.
  private var directRefused = false
  /// Room of the aligned buffer (2 MiB; less in tests), a whole number of blocks. Two of 2 MiB rather
  /// than 8: the write of the last one, which `finish()` waits for, is a quarter as long, and the writing
  /// thread starts sooner (measured: docs/performance.md, "Compiling").
  private let directCapacity: Int
  /// The alignment direct I/O wants of offsets, lengths and memory.
  static let directBlock = 4096

  /// A sink that writes to an open file descriptor, flushing every `capacity` bytes.
  ///
  /// With `startsWriteback`, every 8 MiB written are handed to the disk at once (see
  /// `StagedFile.startWriteback`), so a file that is flushed with `fsync` at the end waits less.
  ///
  /// With `directAfter` above 0, a regular file that grows past that many bytes gets the rest written
  /// with direct I/O, past the page cache: copying a 161 MB compile output into fresh cache pages cost
  /// this machine 0.2–0.4 s of system time, writing it direct 0.03 s. Where the file system refuses
  /// direct I/O (tmpfs), the sink goes on as before. The file is complete only after `finish()`.
  public init(
    descriptor: Int32, path: String, capacity: Int = 1 << 20, startsWriteback: Bool = false, directAfter: Int = 0
  ) {
    self.init(
      descriptor: descriptor, path: path, capacity: capacity, startsWriteback: startsWriteback,
      directAfter: directAfter, directBuffer: 2 << 20)
  }

  /// A sink whose direct I/O buffer holds `directBuffer` bytes (rounded up to whole blocks).
  init(
    descriptor: Int32, path: String, capacity: Int, startsWriteback: Bool, directAfter: Int, directBuffer: Int
  ) {
    directCapacity = max(1, (directBuffer + Self.directBlock - 1) / Self.directBlock) * Self.directBlock
    self.descriptor = descriptor
    self.path = path
    self.capacity = capacity
    writebackStep = startsWriteback ? 8 << 20 : 0
    self.directAfter = descriptor >= 0 ? max(0, directAfter) : 0
    buffer.reserveCapacity(capacity)
  }

  deinit {
    writer?.stop()
    direct?.deallocate()
    spareDirect?.deallocate()
  }

  /// A sink that keeps everything in memory.
  public init() {
    descriptor = -1
    path = "memory"
    capacity = 1 << 16
    writebackStep = 0
    directAfter = 0
    directCapacity = Self.directBlock
  }

  /// Tells the sink that about `count` more bytes are coming: when they take the file past
  /// `directAfter`, direct I/O starts with the next bytes written out, not once the file has grown that
  /// far. The first 16 MiB of a 161 MB output went through the page cache before: 12–16 ms of copying
  /// on the thread that writes.
  public mutating func expect(_ count: Int) {
    if direct == nil && directAfter > 0 && byteCount + buffer.count + count > directAfter {
      directAfter = 1
    }
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
    let failure = values.withUnsafeBytes { emit($0) }
    if failure != 0 { throw .writeFailed(path: path, code: failure) }
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
    // Moved out while written, so that `emit` may change the sink.
    var pending: [UInt8] = []
    swap(&pending, &buffer)
    let failure = pending.withUnsafeBytes { emit($0) }
    pending.removeAll(keepingCapacity: true)
    swap(&pending, &buffer)
    if failure != 0 { throw .writeFailed(path: path, code: failure) }
    startWritebackIfDue()
  }

  /// Writes out everything, and ends direct I/O: the last partial block goes out padded with zeros, and
  /// the file is cut back to its length. Call it once, after the last write.
  public mutating func finish() throws(CompileError) {
    try flush()
    guard let direct else { return }
    let padded = (directCount + Self.directBlock - 1) / Self.directBlock * Self.directBlock
    (direct + directCount).initializeMemory(as: UInt8.self, repeating: 0, count: padded - directCount)
    var failure = writeDirect(count: padded)
    if failure == 0, let writer { failure = writer.wait() }
    if failure == 0 && ftruncate(descriptor, off_t(emitted)) != 0 { failure = errno }
    if failure != 0 { throw .writeFailed(path: path, code: failure) }
    endDirect()
  }

  /// Hands bytes to the file: at once, or through the aligned buffer once direct I/O is on.
  /// Returns 0, or the `errno` of the failure.
  private mutating func emit(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    var rest = bytes
    if direct == nil && directAfter > 0 && !directRefused && emitted + rest.count > directAfter {
      // Direct I/O starts at a block boundary: what comes before it is written as usual.
      let boundary = (emitted + Self.directBlock - 1) / Self.directBlock * Self.directBlock
      let head = min(rest.count, boundary - emitted)
      if head > 0 {
        let failure = StagedFile.writeAll(UnsafeRawBufferPointer(rebasing: rest[..<head]), to: descriptor)
        if failure != 0 { return failure }
        emitted += head
        rest = UnsafeRawBufferPointer(rebasing: rest[head...])
      }
      if !rest.isEmpty { startDirect() }
    }
    guard direct != nil else {
      let failure = StagedFile.writeAll(rest, to: descriptor)
      if failure == 0 { emitted += rest.count }
      return failure
    }
    var offset = 0
    while offset < rest.count, let buffer = direct {  // the buffer changes at each write
      let count = min(rest.count - offset, directCapacity - directCount)
      (buffer + directCount).copyMemory(from: rest.baseAddress! + offset, byteCount: count)
      directCount += count
      emitted += count
      offset += count
      if directCount == directCapacity {
        let failure = writeDirect(count: directCount)
        if failure != 0 { return failure }
      }
    }
    return 0
  }

  /// Turns direct I/O on, unless the file system refuses it.
  private mutating func startDirect() {
    guard StagedFile.setDirectIO(descriptor, true) else {
      directRefused = true
      return
    }
    direct = UnsafeMutableRawPointer.allocate(byteCount: directCapacity, alignment: Self.directBlock)
    directCount = 0
    writer = DirectWriter(descriptor: descriptor)
  }

  /// Hands the first `count` bytes of the aligned buffer (a whole number of blocks) to the writing
  /// thread, at their place in the file, and goes on in the other buffer once its own write has ended.
  /// A file system that takes the flag but refuses the write (`EINVAL`) gets them, and the rest, written
  /// through the page cache (`DirectWriter`). Returns 0, or the `errno` of a failed write.
  private mutating func writeDirect(count: Int) -> Int32 {
    guard let full = direct, let writer else { return 0 }
    let failure = writer.submit(full, count: count, offset: emitted - directCount)
    if failure != 0 { return failure }
    direct =
      spareDirect ?? UnsafeMutableRawPointer.allocate(byteCount: directCapacity, alignment: Self.directBlock)
    spareDirect = full
    directCount = 0
    return 0
  }

  /// Waits for the writing thread, ends it and frees the aligned buffers.
  private mutating func endDirect() {
    writer?.stop()
    writer = nil
    direct?.deallocate()
    direct = nil
    spareDirect?.deallocate()
    spareDirect = nil
    directCount = 0
  }

  /// Hands what was written since the last time to the disk, every `writebackStep` bytes.
  private mutating func startWritebackIfDue() {
    if direct == nil && writebackStep > 0 && byteCount - writtenBack >= writebackStep {
      StagedFile.startWriteback(descriptor, offset: writtenBack, count: byteCount - writtenBack)
      writtenBack = byteCount
    }
  }

}
