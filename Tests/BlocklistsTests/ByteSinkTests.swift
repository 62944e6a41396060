import Blocklists
import Foundation
import Testing

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
