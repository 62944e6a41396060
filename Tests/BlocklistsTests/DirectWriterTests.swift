import Files
import Foundation
import Testing

@testable import Blocklists

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Direct writer: whole buffers written on a thread of their own")
struct DirectWriterTests {
  /// An aligned buffer of `count` bytes, all `value`.
  static func buffer(_ count: Int, _ value: UInt8) -> UnsafeMutableRawPointer {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 4096)
    buffer.initializeMemory(as: UInt8.self, repeating: value, count: count)
    return buffer
  }

  @Test("Buffers handed over one after another land at their offsets, whatever order they are given in")
  func positional() throws {
    let (path, descriptor) = try ByteSinkTests.scratchFile()
    defer {
      close(descriptor)
      unlink(path)
    }
    let size = 8192
    let buffers = (0..<4).map { Self.buffer(size, UInt8(0x41 + $0)) }
    defer { for buffer in buffers { buffer.deallocate() } }
    let writer = DirectWriter(descriptor: descriptor)
    // Later parts first: the file offset plays no part.
    for index in [2, 3, 0, 1] {
      #expect(writer.submit(buffers[index], count: size, offset: index * size) == 0)
    }
    #expect(writer.wait() == 0)
    writer.stop()
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.count == 4 * size)
    for index in 0..<4 {
      #expect(data[(index * size)..<((index + 1) * size)].allSatisfy { $0 == UInt8(0x41 + index) })
    }
  }

  @Test("A write that direct I/O refuses (EINVAL) goes through the page cache instead, and direct I/O stays off")
  func refusedWriteFallsBack() throws {
    let (path, descriptor) = try ByteSinkTests.scratchFile()
    defer {
      close(descriptor)
      unlink(path)
    }
    // Where the file system takes no direct I/O at all, the sink never starts a writer: nothing to test.
    guard StagedFile.setDirectIO(descriptor, true) else { return }
    // 100 bytes is not a whole number of blocks: a direct write of it fails with EINVAL.
    let buffer = Self.buffer(4096, 0x5A)
    defer { buffer.deallocate() }
    let writer = DirectWriter(descriptor: descriptor)
    #expect(writer.submit(buffer, count: 100, offset: 0) == 0)
    #expect(writer.wait() == 0)
    #expect(writer.fellBack)
    writer.stop()
    #expect(fcntl(descriptor, F_GETFL) & 0o40000 == 0, "O_DIRECT off")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x5A, count: 100))
  }

  @Test("A failed write is reported by the next hand-over and by wait, and nothing more is written")
  func failure() throws {
    let (path, writable) = try ByteSinkTests.scratchFile()
    close(writable)
    defer { unlink(path) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)  // every write fails: EBADF
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let buffer = Self.buffer(4096, 1)
    defer { buffer.deallocate() }
    let writer = DirectWriter(descriptor: descriptor)
    #expect(writer.submit(buffer, count: 4096, offset: 0) == 0)
    #expect(writer.wait() == EBADF)
    #expect(writer.submit(buffer, count: 4096, offset: 4096) == EBADF)
    writer.stop()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
  }

  @Test("A sink whose file cannot be written fails with the file named, past direct I/O too")
  func sinkFailure() throws {
    let (path, writable) = try ByteSinkTests.scratchFile()
    close(writable)
    defer { unlink(path) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var sink = ByteSink(
      descriptor: descriptor, path: path, capacity: 1000, startsWriteback: false, directAfter: 1,
      directBuffer: 16 << 10)
    sink.expect(1 << 20)
    do {
      for _ in 0..<8 { try sink.write([UInt8](repeating: 7, count: 10_000)) }
      try sink.finish()
      Issue.record("writing a read-only file succeeded")
    } catch {
      guard case .unwritable(let failed, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(failed == path)
    }
  }
}
