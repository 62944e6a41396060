import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("Reading sources in blocks")
struct BlockReaderTests {
  @Test("Lines split across block edges, CRLF included, are read whole", arguments: [4096, 4099, 8191])
  func edges(blockSize: Int) async throws {
    let names = (0..<2000).map { "host\($0).example.com" }
    let text = names.map { "0.0.0.0 \($0)\r\n" }.joined()
    let list = try await Compiler(blockSize: blockSize).compile([.text(text)])
    #expect(list.allNames == names)
    #expect(list.sources[0].findings.totalRejected == 0)
  }

  @Test("Files and standard-input-like sources give the same result as memory")
  func file() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = (0..<5000).map { "||h\($0).example.net^" }.joined(separator: "\n")
    try Data(text.utf8).write(to: directory.file("list.txt"))
    let fromFile = try await Compiler(blockSize: 4096).compile([.file(directory.file("list.txt").path)])
    let fromMemory = try await Compiler().compile([.text(text)])
    #expect(fromFile.allNames == fromMemory.allNames)
    #expect(fromFile.sources[0].bytes == text.utf8.count)
  }

  @Test("An empty source and a source of only newlines give no names and no errors")
  func empty() async throws {
    let list = try await Compiler().compile([.text(""), .text("\n\n\n")])
    #expect(list.count == 0)
    #expect(list.sources[1].findings.lines == 3)
    #expect(list.sources[1].findings.ignoredLines == 3)
  }
}
