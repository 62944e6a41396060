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

  @Test(
    "Files read in small blocks, whose memory is reused from block to block and file to file, give what one block gives"
  )
  func reusedBlocks() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var texts: [String] = []
    for file in 0..<3 {
      var lines: [String] = []
      for index in 0..<3000 {
        // Lines of many lengths, some repeated across files, some invalid, one far too long.
        let label = String(repeating: "x", count: (index * 7 + file) % 40 + 1)
        lines.append(index % 11 == 0 ? "0.0.0.0 bad..\(label).com" : "0.0.0.0 \(label).h\(index % 2500).example.com\r")
        if file == 1 && index == 1500 { lines.append("0.0.0.0 " + String(repeating: "y", count: 70_000)) }
      }
      texts.append(lines.joined(separator: "\n"))
      try Data(texts[file].utf8).write(to: directory.file("list\(file).txt"))
    }
    let files = (0..<3).map { ListSource.file(directory.file("list\($0).txt").path) }
    let small = try await Compiler(blockSize: 4096, parallelism: 2).compile(files)
    let whole = try await Compiler(blockSize: 1 << 22).compile(texts.map { ListSource.text($0) })
    #expect(small.allNames == whole.allNames)
    for file in 0..<3 {
      let (a, b) = (small.sources[file].findings, whole.sources[file].findings)
      #expect(a.lines == b.lines && a.names == b.names && a.rejected == b.rejected)
      #expect(a.samples == b.samples, "the same line numbers")
    }
    #expect(small.sources[1].findings.rejected[.lineTooLong] == 1)
  }

  @Test("An empty source and a source of only newlines give no names and no errors")
  func empty() async throws {
    let list = try await Compiler().compile([.text(""), .text("\n\n\n")])
    #expect(list.count == 0)
    #expect(list.sources[1].findings.lines == 3)
    #expect(list.sources[1].findings.ignoredLines == 3)
  }
}
