#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a source in blocks of whole lines, never holding more than a block and one line in memory.
///
/// A line longer than `maximumLineLength` is not kept: the reader reports it with its first bytes and
/// skips to the next newline, however long the line is.
struct BlockReader: ~Copyable {
  /// A unit of work for a parser.
  enum Block: Sendable {
    /// Whole lines (the last one may lack its newline at the end of the source).
    case lines([UInt8])
    /// One line that was too long, with its first bytes.
    case longLine(sample: [UInt8])
  }

  static let maximumLineLength = 64 * 1024

  private let descriptor: Int32
  private let ownsDescriptor: Bool
  private let path: String
  private let blockSize: Int
  private var memory: [UInt8]?
  private var memoryOffset = 0
  private var carry: [UInt8] = []
  private var skipping = false
  private var pending: [Block] = []
  /// Where each pending block starts in the source, in bytes.
  private var pendingOffsets: [Int] = []
  /// Where `carry` (the bytes read but not yet handed out) starts in the source.
  private var carryOffset = 0
  /// Where the block `next` returned last starts in the source, in bytes.
  private(set) var lastOffset = 0
  private var finished = false
  /// Bytes read so far.
  private(set) var bytesRead = 0

  init(_ location: ListSource.Location, blockSize: Int) throws(CompileError) {
    let opened: (descriptor: Int32, owns: Bool, path: String, memory: [UInt8]?)
    // A regular file smaller than a block is read into room its size (and one more byte, for the end):
    // a one-line list does not fault in and zero a whole megabyte. A file that grows is read on in blocks.
    var blockSize = blockSize
    switch location {
    case .standardInput:
      opened = (0, false, "standard input", nil)
    case .bytes(let bytes):
      opened = (-1, false, "memory", bytes)
    case .file(let file):
      var info = stat()
      if stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: file) }
      if (info.st_mode & S_IFMT) == S_IFREG { blockSize = min(blockSize, Int(info.st_size) + 1) }
      let descriptor = open(file, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw .unreadable(path: file, detail: String(cString: strerror(errno))) }
      opened = (descriptor, true, file, nil)
    }
    self.blockSize = max(4096, blockSize)
    descriptor = opened.descriptor
    ownsDescriptor = opened.owns
    path = opened.path
    memory = opened.memory
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
  }

  /// The next block, or `nil` at the end of the source; a file is read into one of `spares` (the
  /// bytes of blocks already parsed) when there is one, not into new memory.
  mutating func next(reusing spares: inout [[UInt8]]) throws(CompileError) -> Block? {
    while pending.isEmpty && !finished {
      try fill(reusing: &spares)
    }
    guard !pending.isEmpty else { return nil }
    lastOffset = pendingOffsets.removeFirst()
    return pending.removeFirst()
  }

  /// The next block, or `nil` at the end of the source.
  mutating func next() throws(CompileError) -> Block? {
    var spares: [[UInt8]] = []
    return try next(reusing: &spares)
  }

  private mutating func fill(reusing spares: inout [[UInt8]]) throws(CompileError) {
    var data: [UInt8]
    if let bytes = memory {
      // In-memory sources go through the same splitting, one block-size slice at a time.
      let take = min(blockSize, bytes.count - memoryOffset)
      if take == 0 { return finish() }
      data = carry + bytes[memoryOffset..<(memoryOffset + take)]
      memoryOffset += take
      bytesRead += take
    } else if descriptor >= 0 {
      // Read straight into uninitialised storage after the carried-over bytes: no zero-filling, no trimming.
      var count = 0
      let carried = carry
      let descriptor = descriptor
      let blockSize = blockSize
      let needed = carried.count + blockSize
      // Read into a spare block's memory (only a difference in length is filled first: the read
      // overwrites the bytes), or into a new array the first times.
      data = spares.popLast() ?? []
      if data.count < needed {
        data.appendZeros(needed - data.count)
      } else {
        data.removeLast(data.count - needed)
      }
      data.withUnsafeMutableBufferPointer { buffer in
        _ = UnsafeMutableBufferPointer(rebasing: buffer[..<carried.count]).initialize(from: carried)
        while true {
          count = read(descriptor, buffer.baseAddress! + carried.count, blockSize)
          if count < 0 && errno == EINTR { continue }
          break
        }
      }
      data.removeLast(needed - (carried.count + max(0, count)))
      guard count >= 0 else { throw .unreadable(path: path, detail: String(cString: strerror(errno))) }
      bytesRead += count
      if count == 0 { return finish() }
    } else {
      return finish()
    }
    carry = []
    // `data` starts where the carried bytes did.
    var dataOffset = carryOffset

    if skipping {
      guard let newline = data.firstIndex(of: 0x0A) else {
        carryOffset = dataOffset + data.count
        return
      }
      data.removeSubrange(...newline)
      dataOffset += newline + 1
      skipping = false
    }
    if let newline = data.lastIndex(of: 0x0A) {
      carry = Array(data[(newline + 1)...])
      carryOffset = dataOffset + newline + 1
      data.removeSubrange((newline + 1)...)
      if !data.isEmpty {
        pending.append(.lines(data))
        pendingOffsets.append(dataOffset)
      }
    } else {
      carry = data
      carryOffset = dataOffset
    }
    if carry.count > Self.maximumLineLength {
      pending.append(.longLine(sample: Array(carry.prefix(160))))
      pendingOffsets.append(carryOffset)
      carryOffset += carry.count
      carry = []
      skipping = true
    }
  }

  private mutating func finish() {
    finished = true
    if !carry.isEmpty && !skipping {
      pending.append(.lines(carry))
      pendingOffsets.append(carryOffset)
    }
    carry = []
  }
}
