import Foundation
import Testing

@testable import Blocklists

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Byte sink")
struct ByteSinkTests {
  /// A new empty file in the temporary directory, open for writing.
  static func scratchFile() throws -> (path: String, descriptor: Int32) {
    let path = FileManager.default.temporaryDirectory.appending(path: "sink-\(UUID().uuidString)").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    return (path, descriptor)
  }

  @Test("A file written through a sink that starts writeback every 8 MiB holds every byte, in order")
  func writeback() throws {
    let (path, descriptor) = try Self.scratchFile()
    defer { unlink(path) }
    var sink = ByteSink(descriptor: descriptor, path: path, startsWriteback: true)
    var expected: [UInt8] = []
    for index in 0..<(20 << 20) / 4096 {
      let block = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 4096)
      try sink.write(block)
      expected += block
    }
    try sink.write("end\n")
    try sink.flush()
    close(descriptor)
    #expect(sink.byteCount == expected.count + 4)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected + Array("end\n".utf8)))
  }

  @Test("A memory sink keeps everything")
  func memory() throws {
    var sink = ByteSink()
    try sink.write("a")
    try sink.write([0x62])
    sink.write(byte: 0x0A)
    try sink.flush()
    #expect(sink.memory == Array("ab\n".utf8) && sink.byteCount == 3)
  }

  @Test("Arrays as large as the buffer, and typed arrays, are written in order after what is buffered")
  func largeWrites() throws {
    let (path, descriptor) = try Self.scratchFile()
    defer { unlink(path) }
    var sink = ByteSink(descriptor: descriptor, path: path, capacity: 64)
    let large = [UInt8](repeating: 0x41, count: 100)
    try sink.write("head")
    try sink.write(large)
    try sink.write(contentsOf: [UInt32(0x0403_0201), 0x0807_0605])
    try sink.write("tail")
    try sink.flush()
    close(descriptor)
    var expected = Array("head".utf8) + large + [1, 2, 3, 4, 5, 6, 7, 8]
    expected += Array("tail".utf8)
    #expect(sink.byteCount == expected.count)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))

    var memory = ByteSink()
    try memory.write("a")
    try memory.write(contentsOf: [UInt16(0x6362)])
    try memory.flush()
    #expect(memory.memory == Array("abc".utf8) && memory.byteCount == 3)
  }

  @Test("A write that fails names the file")
  func failure() throws {
    var sink = ByteSink(descriptor: -1 + 1_000_000, path: "/nowhere/out", capacity: 8)
    let error = #expect(throws: CompileError.self) { try sink.write(contentsOf: [UInt64](repeating: 7, count: 4)) }
    #expect(error?.localizedDescription.contains("/nowhere/out") == true, "\(String(describing: error))")
  }
}

@Suite("Byte sink with direct I/O")
struct ByteSinkDirectTests {
  /// Writes `pieces` through a sink that turns direct I/O on after `after` bytes; returns the file.
  static func written(_ pieces: [[UInt8]], after: Int, typed: Bool = false) throws -> (Data, Int) {
    let (path, descriptor) = try ByteSinkTests.scratchFile()
    defer { unlink(path) }
    var sink = ByteSink(
      descriptor: descriptor, path: path, capacity: 1000, startsWriteback: false, directAfter: after,
      directBuffer: 16 << 10)
    for piece in pieces {
      if typed { try sink.write(contentsOf: piece) } else { try sink.write(piece) }
    }
    try sink.finish()
    close(descriptor)
    return (try Data(contentsOf: URL(fileURLWithPath: path)), sink.byteCount)
  }

  /// Bytes that differ from one offset to the next, so a block written twice or out of place shows.
  static func pattern(_ count: Int, seed: Int) -> [UInt8] {
    // Built from a 4,099-byte run (a prime length, so no block repeats another) without a per-byte
    // loop over the whole, which a debug build would take seconds for.
    let run = (0..<4099).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 9) ^ seed) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count { bytes.append(contentsOf: run.prefix(count - bytes.count)) }
    return bytes
  }

  @Test(
    "Every byte arrives in order, whatever the sizes around the switch and the last partial block",
    arguments: [
      // (piece sizes, bytes before direct I/O), around a 16 KiB aligned buffer
      ([100, 5000, 3], 0), ([4096, 4096], 4096), ([1, 4095, 1], 1), ([12_345, 40_000, 777], 6000),
      ([(16 << 10) + 4096], 100), ([10, 20, 30], 1 << 20), ([50_000, 50_000, 50_000, 1], 20_000),
      ([16 << 10, 16 << 10], 0),
    ])
  func roundTrip(sizes: [Int], after: Int) throws {
    let pieces = sizes.enumerated().map { Self.pattern($1, seed: $0) }
    let expected = pieces.reduce([], +)
    for typed in [false, true] {
      let (data, count) = try Self.written(pieces, after: after, typed: typed)
      #expect(count == expected.count)
      #expect(data.count == expected.count, "the padding of the last block is cut off")
      #expect(data == Data(expected))
    }
  }

  @Test("Told that enough bytes are coming, a sink writes past the page cache from the start, not after the threshold")
  func expected() throws {
    for (coming, switches) in [(2 << 20, true), (100_000, false)] {
      let (path, descriptor) = try ByteSinkTests.scratchFile()
      defer { unlink(path) }
      var sink = ByteSink(
        descriptor: descriptor, path: path, capacity: 1000, startsWriteback: false, directAfter: 1 << 20,
        directBuffer: 16 << 10)
      let header = Self.pattern(300, seed: 1)
      try sink.write(header)
      sink.expect(coming)
      let body = Self.pattern(50_000, seed: 2)
      try sink.write(body)
      // Past the head up to the first block boundary, the file is in direct mode (O_DIRECT, 0o40000 on
      // x86-64 Linux) only when told early.
      #expect((fcntl(descriptor, F_GETFL) & 0o40000 != 0) == switches, "told of \(coming) bytes")
      try sink.finish()
      close(descriptor)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(header + body))
    }
  }

  @Test("An output file past the threshold is complete and replaces the old one only at commit")
  func outputFile() throws {
    let path = FileManager.default.temporaryDirectory.appending(path: "direct-\(UUID().uuidString)").path
    defer { unlink(path) }
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    let body = Self.pattern((9 << 20) + 17, seed: 5)
    #expect(throws: CompileError.self) {
      try OutputFile.write(path, directAfter: 4096) { (sink) throws(CompileError) in
        try sink.write(body)
        throw .cancelled
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old\n".utf8))
    try OutputFile.write(path, directAfter: 4096) { (sink) throws(CompileError) in try sink.write(body) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
  }
}
