import Blocklists
import Testing

@Suite("Parsing a source without a set")
struct CompilerParseTests {
  @Test("Progress counts lines and names read, repeats included, and ends at the whole source")
  func progress() async throws {
    let text = String(repeating: "0.0.0.0 same.website\n", count: 200) + "0.0.0.0 other.website\n"
    var seen: [Compiler.Progress] = []
    let list = try await Compiler(blockSize: 512).parse(.text(text, name: "x")) { seen.append($0) }
    #expect(seen.count > 1, "a block at a time")
    #expect(seen.last?.lines == 201)
    #expect(seen.last?.uniqueNames == 201)
    #expect(seen.last?.bytes == text.utf8.count)
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.lines < $1.lines })
    #expect(list.names == 201)
  }

  @Test("A missing file is the compile's named error")
  func missingFile() async throws {
    await #expect(throws: CompileError.self) {
      _ = try await Compiler().parse(.file("/nonexistent/sanehosts-list.txt"))
    }
  }

  @Test("A cancelled parse throws .cancelled")
  func cancelled() async throws {
    let text = String(repeating: "0.0.0.0 a.website\n", count: 100_000)
    let task = Task { try await Compiler(blockSize: 1024).parse(.text(text, name: "x")) }
    task.cancel()
    do {
      _ = try await task.value
      Issue.record("a cancelled parse finished")
    } catch {
      #expect(error as? CompileError == .cancelled)
    }
  }
}
