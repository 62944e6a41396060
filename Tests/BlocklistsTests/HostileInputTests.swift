import Blocklists
import Foundation
import Testing

@Suite("Hostile and broken input")
struct HostileInputTests {
  @Test("An HTML page instead of a list yields no names, only counted rejects")
  func html() {
    let (names, findings) = parse(
      """
      <!DOCTYPE html>
      <html><head><title>404 Not Found</title></head>
      <body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body>
      </html>
      """)
    #expect(names.isEmpty)
    #expect(findings.totalRejected == 4)
  }

  @Test(
    "Data that is plainly not a list is recognised and named",
    arguments: [
      ([0x1F, 0x8B, 0x08, 0x00, 0x41], Findings.ContentKind.gzip), (Array("PK\u{3}\u{4}rest".utf8), .zip),
      (Array("%PDF-1.7\n".utf8), .pdf), ([0xFF, 0xFE, 0x30, 0x00, 0x2E, 0x00], .utf16),
      (Array("<!DOCTYPE html>\n<html>".utf8), .html), (Array("<html><body>".utf8), .html),
    ])
  func contentKinds(bytes: [UInt8], kind: Findings.ContentKind) async throws {
    let list = try await Compiler().compile([ListSource(name: "x", location: .bytes(bytes))])
    #expect(list.sources[0].findings.content == kind)
    #expect(!kind.advice.isEmpty)
  }

  @Test("A real list is not mistaken for other content")
  func plainList() async throws {
    let list = try await compile(["# <html> in a comment\n0.0.0.0 a.example.com\n"])
    #expect(list.sources[0].findings.content == nil)
  }

  @Test("Binary junk and NUL bytes are named as binary data, never names")
  func binary() {
    var bytes = seeded(count: 20_000)
    bytes += Array("\n0.0.0.0 good.example.com\nnul\u{0}byte.example.com\n".utf8)
    var parser = LineParser()
    bytes.withUnsafeBufferPointer { parser.parse(buffer: $0) }
    let result = parser.finish()
    #expect(result.names.contains("good.example.com"))
    #expect(result.names.allSatisfy { name in name.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F } })
    #expect(result.findings.rejected[.binaryData, default: 0] > 0)
  }

  @Test("A line of megabytes is rejected without being held, and the next line still counts")
  func hugeLine() async throws {
    let huge = String(repeating: "a", count: 3 << 20)
    let list = try await compile(["a.example.com\n\(huge).com\nb.example.com"], blockSize: 1 << 16)
    #expect(list.allNames == ["a.example.com", "b.example.com"])
    let findings = list.sources[0].findings
    #expect(findings.rejected[.lineTooLong] == 1)
    #expect(findings.samples[.lineTooLong]?.first?.line == 2)
    #expect(findings.lines == 3)
  }

  @Test("Samples escape control characters and are shortened")
  func printableSamples() {
    let (_, findings) = parse("bad\u{1}name\u{7F}.com " + String(repeating: "x", count: 500))
    let sample = findings.samples.values.first?.first?.text ?? ""
    #expect(!sample.contains("\u{1}"))
    #expect(sample.count <= 125)
  }

  func seeded(count: Int) -> [UInt8] {
    var state: UInt64 = 7
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1
      return UInt8(truncatingIfNeeded: state >> 33)
    }
  }
}
