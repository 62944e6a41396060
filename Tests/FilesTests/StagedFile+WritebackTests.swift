import Files
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Early writeback")
struct StagedFileWritebackTests {
  @Test("Starting writeback mid-write changes nothing in the file, and is harmless on a pipe")
  func harmless() throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "writeback-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appending(path: "out").path
    let file = try StagedFile(replacing: path)
    let chunk = Array(repeating: UInt8(ascii: "x"), count: 1 << 16)
    for index in 0..<8 {
      try chunk.withUnsafeBytes { try file.append($0) }
      StagedFile.startWriteback(file.descriptor, offset: index << 16, count: 1 << 16)
    }
    StagedFile.startWriteback(file.descriptor, offset: 0, count: 0)
    try file.commit()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: UInt8(ascii: "x"), count: 8 << 16))

    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    StagedFile.startWriteback(ends[1], offset: 0, count: 4096)  // ESPIPE, ignored
    close(ends[0])
    close(ends[1])
  }

  @Test("Direct I/O is turned on and off on a file, and refused without one")
  func directIO() throws {
    let path = FileManager.default.temporaryDirectory.appending(path: "direct-\(UUID().uuidString)").path
    defer { unlink(path) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    // Some file systems refuse it; where it is taken, the flag shows in the descriptor's status flags.
    if StagedFile.setDirectIO(descriptor, true) {
      #if arch(x86_64)
        #expect(fcntl(descriptor, F_GETFL) & 0o40000 != 0, "O_DIRECT on")
      #endif
      #expect(StagedFile.setDirectIO(descriptor, false))
      #if arch(x86_64)
        #expect(fcntl(descriptor, F_GETFL) & 0o40000 == 0, "O_DIRECT off")
      #endif
    }
    #expect(!StagedFile.setDirectIO(-1, true), "no file, no direct I/O")
  }
}
