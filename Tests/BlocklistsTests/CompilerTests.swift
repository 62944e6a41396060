import Foundation
import Testing

@testable import Blocklists

@Suite("Compiling many sources into one set")
struct CompilerTests {
  @Test("Names are deduplicated across sources, in first-seen order, and each knows its sources")
  func merge() async throws {
    let list = try await compile([
      "0.0.0.0 a.example.com\n0.0.0.0 b.example.com\n0.0.0.0 a.example.com\n",
      "||b.example.com^\n||c.example.com^\n",
    ])
    #expect(list.allNames == ["a.example.com", "b.example.com", "c.example.com"])
    #expect(list.sources(listing: "b.example.com") == ["list1", "list2"])
    #expect(list.sources(listing: "c.example.com") == ["list2"])
    #expect(list.sources(listing: "nope.example.com") == [])
    #expect(list.sources[0].unique == 2 && list.sources[0].duplicates == 1)
    #expect(list.sources[1].unique == 1 && list.sources[1].duplicates == 1)
    #expect(list.sources[0].format == .hosts && list.sources[1].format == .adblock)
  }

  @Test("Small blocks give the same names and the same line numbers as one big block")
  func blocks() async throws {
    let text = (1...3000).map { $0 % 100 == 0 ? "bad..line\($0).com" : "0.0.0.0 host\($0).example.com" }.joined(
      separator: "\n")
    let small = try await compile([text], blockSize: 4096)
    let large = try await compile([text])
    #expect(small.allNames == large.allNames)
    #expect(small.count == 2970)
    #expect(small.sources[0].findings == large.sources[0].findings)
    #expect(small.sources[0].findings.samples[.emptyLabel]?.map(\.line) == [100, 200, 300, 400, 500])
    #expect(small.sources[0].findings.lines == 3000)
  }

  @Test("A missing file or a directory is a named error")
  func unreadable() async throws {
    await #expect(throws: CompileError.unreadable(path: "/nonexistent/list.txt", detail: "No such file or directory")) {
      try await Compiler().compile([.file("/nonexistent/list.txt")])
    }
    await #expect(throws: CompileError.isDirectory(path: "/tmp")) {
      try await Compiler().compile([.file("/tmp")])
    }
  }

  @Test("Progress reports lines and names as blocks are merged")
  func progress() async throws {
    let text = (1...2000).map { "0.0.0.0 p\($0).example.com" }.joined(separator: "\n")
    var reports: [Compiler.Progress] = []
    _ = try await Compiler(blockSize: 4096).compile([.text(text)]) { reports.append($0) }
    #expect(reports.count > 5)
    #expect(reports.last?.lines == 2000)
    #expect(reports.last?.uniqueNames == 2000)
    #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.lines <= $1.lines })
  }

  @Test("A cancelled compile stops with a named error")
  func cancel() async throws {
    let text = String(repeating: "0.0.0.0 x.example.com\n", count: 200_000)
    let task = Task { try await Compiler(blockSize: 4096, parallelism: 1).compile([.text(text)]) }
    task.cancel()
    await #expect(throws: CompileError.cancelled) { try await task.value }
  }

  @Test("The table is sized from the names per byte of the first block, not from the input's size alone")
  func capacityFromFirstBlock() {
    // 1 MB of bare names (about 21 bytes a line): twice as many names per byte as a hosts file.
    let text = (0..<50_000).map { "n\($0).example.org" }.joined(separator: "\n")
    let bytes = Array(text.utf8)
    let merger = Compiler.Merger(sources: [.text(text)], capacity: 4096, bytes: bytes.count)
    var parser = LineParser(format: nil)
    bytes.withUnsafeBufferPointer { parser.parse(buffer: UnsafeBufferPointer(rebasing: $0[0..<(64 << 10)])) }
    let first = parser.finish()
    #expect(merger.capacity(after: first) >= 50_000 && merger.capacity(after: first) < 60_000)
    // A first block too small to tell keeps the estimate from the size.
    var small = LineParser(format: nil)
    bytes.withUnsafeBufferPointer { small.parse(buffer: UnsafeBufferPointer(rebasing: $0[0..<100])) }
    #expect(merger.capacity(after: small.finish()) == 4096)
  }
}
