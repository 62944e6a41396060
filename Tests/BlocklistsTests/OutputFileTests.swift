import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("Writing outputs atomically")
struct OutputFileTests {
  @Test("A finished write replaces the file; a failed one leaves it and no temporary file")
  func atomic() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("out.txt").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    try OutputFile.write(path) { (sink) throws(CompileError) in try sink.write("new\n") }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(throws: CompileError.cancelled) {
      try OutputFile.write(path) { (sink) throws(CompileError) in
        try sink.write("partial")
        throw .cancelled
      }
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(directory.contents() == ["out.txt"])
  }

  @Test("A destination that is not a regular file (a FIFO, like /dev/null) is written in place, not replaced")
  func device() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = try FIFOReader(in: directory)
    try OutputFile.write(fifo.path) { (sink: inout ByteSink) throws(CompileError) in
      try sink.write("through the pipe\n")
    }
    #expect(try fifo.finish() == "through the pipe\n")
    #expect(fifo.isStillFIFO)
    #expect(directory.contents() == ["pipe", "pipe.received"], "no temporary file left")
  }

  @Test("An unwritable place is a named error")
  func unwritable() {
    #expect(throws: CompileError.self) {
      try OutputFile.write("/nonexistent/dir/out.txt") { (sink) throws(CompileError) in try sink.write("x") }
    }
  }

  @Test("The sink buffers and flushes everything")
  func sink() throws {
    var sink = ByteSink()
    for _ in 0..<100_000 { try sink.write("abc\n") }
    try sink.flush()
    #expect(sink.memory.count == 400_000)
    #expect(sink.byteCount == 400_000)
  }
}
