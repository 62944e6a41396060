import Foundation
import TestSupport
import Testing

@testable import Traffic

@Suite("Reading a log file: plain or gzip'd, a line at a time")
struct LogReaderTests {
  static func lines(of path: String) throws -> ([String], LogFindings) {
    var reader = try LogReader(path: path)
    var findings = LogFindings()
    var lines: [String] = []
    try reader.forEachLine(findings: &findings) { line, _, _ in lines.append(String(decoding: line, as: UTF8.self)) }
    return (lines, findings)
  }

  @Test("CRLF, a last line without a break, a NUL byte and an endless line: counted, never fatal")
  func damage() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("log")
    var bytes = Array("one\r\ntwo\nbad\u{0}line\n".utf8)
    bytes += [UInt8](repeating: 0x61, count: LogReader.maximumLine + 10) + [0x0A]
    bytes += Array("after\nlast".utf8)
    try Data(bytes).write(to: file)
    let (lines, findings) = try Self.lines(of: file.path)
    #expect(lines == ["one", "two", "after", "last"])
    #expect(findings.lines == 6)
    #expect(findings.skipped == ["NUL byte in line": 1, "line longer than 65536 bytes": 1])
    #expect(findings.samples["line longer than 65536 bytes"]?.first?.line == 4)
  }

  @Test("A gzip'd copy reads as its text; a missing file is a named error")
  func gzip() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("log.2")
    let text = (1...50_000).map { "line \($0)" }.joined(separator: "\n") + "\n"
    try Data(text.utf8).write(to: file)
    let gzip = try RequiredTool.path("gzip", package: "gzip")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gzip)
    process.arguments = [file.path]
    try process.run()
    process.waitUntilExit()
    let (lines, findings) = try Self.lines(of: file.path + ".gz")
    #expect(lines.count == 50_000 && lines.last == "line 50000")
    #expect(findings.skippedLines == 0)
    #expect(throws: TrafficError.self) { try Self.lines(of: directory.file("missing").path) }
  }
}
