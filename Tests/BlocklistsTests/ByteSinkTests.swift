import Blocklists
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Byte sink")
struct ByteSinkTests {
  @Test("A file written through a sink that starts writeback every 8 MiB holds every byte, in order")
  func writeback() throws {
    let path = FileManager.default.temporaryDirectory.appending(path: "sink-\(UUID().uuidString)").path
    defer { unlink(path) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
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
}
