import Apply
import Testing

/// A small deterministic generator, so every failing case can be replayed from its seed.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("The managed section of a hosts file")
struct ManagedSectionTests {
  static let userLines = [
    "127.0.0.1 localhost", "::1 localhost ip6-localhost", "# a comment", "", "   ", "192.168.1.10 nas.lan nas",
    "\t10.0.0.1\trouter # tabbed", "0.0.0.0 my-own-block.website", "# >>> not quite our marker", "#", "ünïcödé.website",
  ]

  /// A random hosts file: user lines, LF or CRLF, with or without a final newline, maybe with a section
  /// (and user lines after it).
  static func randomFile(_ random: inout SplitMix) -> (file: [UInt8], hasSection: Bool) {
    let crlf = Bool.random(using: &random)
    let ending = crlf ? "\r\n" : "\n"
    var lines = (0..<Int.random(in: 0...12, using: &random)).map { _ in userLines.randomElement(using: &random)! }
    let hasSection = Bool.random(using: &random)
    if hasSection {
      let at = Int.random(in: 0...lines.count, using: &random)
      let body = (0..<Int.random(in: 0...4, using: &random)).map { "0.0.0.0 old\($0).website" }
      lines.insert(contentsOf: [ManagedSection.beginMarker] + body + [ManagedSection.endMarker], at: at)
    }
    var text = lines.joined(separator: ending)
    if !lines.isEmpty && Bool.random(using: &random) { text += ending }
    return (Array(text.utf8), hasSection)
  }

  static func body(_ random: inout SplitMix) -> [String] {
    (0..<Int.random(in: 0...6, using: &random)).map { "0.0.0.0 blocked\($0).website" }
  }

  @Test("Property: outside the section every byte is kept; apply then remove gives the file back", arguments: 0..<8)
  func keepsEverythingOutside(_ seed: UInt64) throws {
    var random = SplitMix(state: seed)
    for _ in 0..<250 {
      let (file, _) = Self.randomFile(&random)
      let lines = Self.body(&random)
      let applied = try ManagedSection.apply(lines, to: file)
      #expect(try ManagedSection.remove(from: applied) == ManagedSection.remove(from: file), "seed \(seed)")
      #expect(try ManagedSection.lines(in: applied) == lines, "seed \(seed)")
    }
  }

  @Test("Property: applying twice equals applying once; a new body replaces the old in place", arguments: 0..<8)
  func idempotent(_ seed: UInt64) throws {
    var random = SplitMix(state: seed &+ 1000)
    for _ in 0..<250 {
      let (file, _) = Self.randomFile(&random)
      let first = Self.body(&random)
      let second = Self.body(&random)
      let once = try ManagedSection.apply(second, to: file)
      #expect(try ManagedSection.apply(second, to: once) == once, "seed \(seed)")
      let replaced = try ManagedSection.apply(second, to: try ManagedSection.apply(first, to: file))
      #expect(replaced == once, "seed \(seed)")
    }
  }

  @Test("A file without a section, with and without a final newline, gets it back exactly")
  func finalNewline() throws {
    for text in ["", "127.0.0.1 localhost", "127.0.0.1 localhost\n", "a\r\nb", "a\r\nb\r\n"] {
      let file = Array(text.utf8)
      let applied = try ManagedSection.apply(["0.0.0.0 ads.website"], to: file)
      #expect(try ManagedSection.remove(from: applied) == file, "\(text.debugDescription)")
    }
    let applied = try ManagedSection.apply(["0.0.0.0 ads.website"], to: Array("127.0.0.1 localhost".utf8))
    #expect(
      String(decoding: applied, as: UTF8.self)
        == "127.0.0.1 localhost\n\(ManagedSection.beginMarker)\n0.0.0.0 ads.website\n\(ManagedSection.endMarker)")
  }

  @Test("CRLF files get CRLF section lines; user lines after the section stay after it")
  func crlfAndAfter() throws {
    let file = Array("127.0.0.1 localhost\r\n".utf8)
    let applied = try ManagedSection.apply(["0.0.0.0 a.website"], to: file)
    #expect(String(decoding: applied, as: UTF8.self).hasSuffix("0.0.0.0 a.website\r\n\(ManagedSection.endMarker)\r\n"))
    let withAfter = applied + Array("10.0.0.5 printer\r\n".utf8)
    let again = try ManagedSection.apply(["0.0.0.0 b.website"], to: withAfter)
    #expect(String(decoding: again, as: UTF8.self).hasSuffix("\(ManagedSection.endMarker)\r\n10.0.0.5 printer\r\n"))
    #expect(try ManagedSection.lines(in: again) == ["0.0.0.0 b.website"])
  }

  @Test("Broken markers are refused with the line, never guessed")
  func brokenMarkers() {
    let begin = ManagedSection.beginMarker
    let end = ManagedSection.endMarker
    #expect(throws: ManagedSection.Problem.unterminated(beginLine: 2)) {
      try ManagedSection.apply([], to: Array("a\n\(begin)\nx\n".utf8))
    }
    #expect(throws: ManagedSection.Problem.unexpectedEnd(line: 1)) {
      try ManagedSection.remove(from: Array("\(end)\n".utf8))
    }
    #expect(throws: ManagedSection.Problem.duplicate(firstLine: 1, secondLine: 3)) {
      try ManagedSection.locate(in: Array("\(begin)\n\(end)\n\(begin)\n\(end)\n".utf8))
    }
    #expect(throws: ManagedSection.Problem.invalidBody(line: 2)) {
      try ManagedSection.apply(["0.0.0.0 a.website", end], to: [])
    }
  }

  @Test(
    "A body line cannot add a line: a newline, a carriage return or a NUL in it is refused",
    arguments: ["\n", "\r", "\r\n", "\u{0}"])
  func bodyCannotAddLines(_ separator: String) {
    let injected = "0.0.0.0 a.website\(separator)203.0.113.9 bank.website"
    let file = Array("127.0.0.1 localhost\n".utf8)
    #expect(throws: ManagedSection.Problem.invalidBody(line: 2)) {
      try ManagedSection.apply(["0.0.0.0 ok.website", injected], to: file)
    }
  }

  @Test("Regression (fuzz): an unterminated last line ending in CR does not make the next apply CRLF")
  func unterminatedLineEndingInCR() throws {
    // Found by Fuzz/FuzzHostsEditor: the newline apply adds before the section followed the "\r", so the
    // file then looked CRLF and applying again rewrote the section with CRLF endings.
    let file = Array("127.0.0.1 localhost\r".utf8)
    let once = try ManagedSection.apply(["0.0.0.0 ads.website"], to: file)
    #expect(!once.dropFirst(file.count + 1).contains(13))
    #expect(try ManagedSection.apply(["0.0.0.0 ads.website"], to: once) == once)
    #expect(try ManagedSection.remove(from: once) == file)
  }

  @Test("A body of bytes gives the same file as its lines; a CR, a NUL, a marker or a missing newline is refused")
  func bodyBytes() throws {
    let lines = ["# Profile p", "0.0.0.0 a.website", "0.0.0.0 b.website"]
    let body = Array((lines.joined(separator: "\n") + "\n").utf8)
    for file in ["127.0.0.1 localhost\n", "127.0.0.1 localhost\r\n::1 localhost\r\n", "", "no newline"] {
      #expect(
        try ManagedSection.apply(body: body, to: Array(file.utf8)) == ManagedSection.apply(lines, to: Array(file.utf8)))
    }
    let crlf = try ManagedSection.apply(body: body, to: Array("127.0.0.1 localhost\r\n".utf8))
    #expect(String(decoding: crlf, as: UTF8.self).contains("0.0.0.0 a.website\r\n0.0.0.0 b.website\r\n"))
    #expect(throws: ManagedSection.Problem.invalidBody(line: 2)) {
      try ManagedSection.apply(body: Array("0.0.0.0 a.website\n0.0.0.0 b\r.website\n".utf8), to: [])
    }
    #expect(throws: ManagedSection.Problem.invalidBody(line: 1)) {
      try ManagedSection.apply(body: [0x30, 0, 10], to: [])
    }
    #expect(throws: ManagedSection.Problem.invalidBody(line: 2)) {
      try ManagedSection.apply(body: Array("0.0.0.0 a.website\n\(ManagedSection.endMarker)\n".utf8), to: [])
    }
    #expect(throws: ManagedSection.Problem.invalidBody(line: 2)) {
      try ManagedSection.apply(body: Array("0.0.0.0 a.website\n0.0.0.0 b.website".utf8), to: [])
    }
  }
}
