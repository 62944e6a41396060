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

  /// `lines` gzip'd by the real gzip, as bytes.
  static func gzipped(_ text: String, in directory: TemporaryDirectory) throws -> [UInt8] {
    let file = directory.file("plain-\(UUID().uuidString)")
    try Data(text.utf8).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try RequiredTool.path("gzip", package: "gzip"))
    process.arguments = [file.path]
    try process.run()
    process.waitUntilExit()
    return Array(try Data(contentsOf: URL(fileURLWithPath: file.path + ".gz")))
  }

  @Test(
    "Regression: a truncated gzip names the file and how far it was read (it counted 397 of 757 queries silently); a damaged one too"
  )
  func truncatedGzip() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Random-looking lines, so gzip cannot shrink them to nothing and a cut lands inside the data.
    var state: UInt64 = 7
    let text =
      (1...20_000).map { index -> String in
        state = state &* 6_364_136_223_846_793_005 &+ 1
        return "line \(index) \(String(state, radix: 36))"
      }.joined(separator: "\n") + "\n"
    let whole = try Self.gzipped(text, in: directory)
    let cut = directory.file("dnsmasq.log.2.gz")
    try Data(whole.prefix(whole.count / 2)).write(to: cut)
    let (lines, findings) = try Self.lines(of: cut.path)
    #expect(lines.count > 1000 && lines.count < 20_000)
    let damaged = try #require(findings.damagedFiles.first)
    #expect(damaged.file == cut.path && damaged.linesRead == lines.count)
    #expect(damaged.reason == "the gzip data ends early (a truncated file)")
    #expect(damaged.description.contains("read \(lines.count) lines"), "\(damaged.description)")
    // Every line delivered is whole: the partial one before the cut is not counted.
    #expect(lines.allSatisfy { $0.hasPrefix("line ") && $0.split(separator: " ").count == 3 })
    // Damaged in the middle: reported as damage, the lines before it counted.
    var broken = whole
    for index in (broken.count / 2)..<(broken.count / 2 + 64) { broken[index] ^= 0x5A }
    let corrupt = directory.file("dnsmasq.log.3.gz")
    try Data(broken).write(to: corrupt)
    let (_, corruptFindings) = try Self.lines(of: corrupt.path)
    #expect(corruptFindings.damagedFiles.first?.file == corrupt.path, "\(corruptFindings)")
  }

  @Test("Regression: random bytes named .gz are refused, not read as text; a NUL byte's sample reads \\x00")
  func notGzip() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fake = directory.file("dnsmasq.log.4.gz")
    var state: UInt64 = 3
    let bytes = (0..<4096).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1
      return UInt8(truncatingIfNeeded: state >> 33)
    }
    try Data([0x20] + bytes).write(to: fake)
    #expect(throws: TrafficError.unreadable(path: fake.path, reason: "it is named .gz but is not gzip data")) {
      try Self.lines(of: fake.path)
    }
    let plain = directory.file("log")
    try Data("a\u{0}b\n".utf8).write(to: plain)
    #expect(try Self.lines(of: plain.path).1.samples["NUL byte in line"]?.first?.text == "a\\x00b")
  }
}
