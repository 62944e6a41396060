import Blocklists
import Testing

@Suite("A source's names as parsed")
struct ParsedListTests {
  @Test("Blocks add up: names with repeats, lines, and findings at their line in the whole source")
  func blocksAddUp() async throws {
    let text = "0.0.0.0 a.website\n0.0.0.0 a.website\nbad_name!\n0.0.0.0 b.website\n<html>\n0.0.0.0 c.website\n"
    // A block of 16 bytes holds one line, so each line comes in a block of its own.
    let list = try await Compiler(blockSize: 16).parse(.text(text, name: "x"))
    #expect(list.names == 4)
    #expect(list.lines == 6)
    #expect(list.report.name == "x")
    #expect(list.report.unique == 0 && list.report.duplicates == 0, "counted when merged")
    let whole = try await compile([text])
    #expect(list.report.findings == whole.sources[0].findings)
    #expect(list.report.bytes == whole.sources[0].bytes)
  }
}
