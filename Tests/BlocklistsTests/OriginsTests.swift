import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("Each name's line, kept for why")
struct OriginsTests {
  /// A list of hosts, adblock and plain lines with comments, CRLF, a byte-order mark, repeats, a line
  /// too long to keep and lines spread over many small blocks; with each line's number and offset.
  static func sample(seed: UInt64 = 7) -> (text: String, lines: [(number: Int, offset: Int, text: String)]) {
    var state = seed
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    var lines: [String] = ["\u{FEFF}# a header"]
    for index in 0..<3000 {
      let name = "n\(next() % 900).website"
      if index == 1000 {
        // Skipped unread (too long): the offsets after it must still count its bytes.
        lines.append("0.0.0.0 " + String(repeating: "x", count: 70_000) + ".website")
        continue
      }
      switch index % 7 {
      case 0: lines.append("0.0.0.0 \(name) w\(index).website\r")
      case 1: lines.append("||\(name)^")
      case 2: lines.append("! comment \(index)")
      case 3: lines.append(name)
      default: lines.append("127.0.0.1 \(name)")
      }
    }
    var offset = 0
    var numbered: [(Int, Int, String)] = []
    for (index, line) in lines.enumerated() {
      numbered.append((index + 1, offset, line))
      offset += line.utf8.count + 1
    }
    return (lines.joined(separator: "\n") + "\n", numbered)
  }

  /// The first line of each name, found without the engine: the words after an address, `||x^`, or
  /// a bare word, in line order.
  static func firstLines(_ lines: [(number: Int, offset: Int, text: String)]) -> [String: (line: Int, offset: Int)] {
    var first: [String: (Int, Int)] = [:]
    for (number, offset, raw) in lines {
      var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
      if text.hasPrefix("#") || text.hasPrefix("!") || text.count > 65_536 { continue }
      var names: [String] = []
      if text.hasPrefix("||") {
        names = [String(text.dropFirst(2).dropLast())]
      } else {
        let words = text.split(separator: " ").map(String.init)
        names = words.count > 1 ? Array(words.dropFirst()) : words
      }
      for name in names where first[name] == nil { first[name] = (number, offset) }
    }
    return first
  }

  @Test("A source compiled alone keeps each name's first line and its offset, across blocks and a skipped line")
  func compiledAlone() async throws {
    let (text, lines) = Self.sample()
    var compiler = Compiler(blockSize: 4096, parallelism: 2)
    compiler.recordsOrigins = true
    let list = try await compiler.compile([.text(text, name: "s")])
    let expected = Self.firstLines(lines)
    #expect(list.count == expected.count)
    #expect(list.origins.count == list.count)
    for (entry, name) in list.allNames.enumerated() {
      let origin = try #require(expected[name], "\(name)")
      #expect(Int(list.origins.offsets[entry]) == origin.offset, "\(name)")
    }
    // Checkpoints: each a line start with its number, in order, about every 4 KiB, the first line first.
    let starts = Dictionary(uniqueKeysWithValues: lines.map { ($0.offset, $0.number) })
    let checkpoints = list.origins.checkpoints
    #expect(checkpoints.count >= 2 * (lines.last!.offset / (Origins.checkpointSpacing + 70_000)))
    #expect(checkpoints.prefix(2) == [0, 1])
    var index = 0
    var previous = -1
    while index < checkpoints.count {
      #expect(starts[Int(checkpoints[index])] == Int(checkpoints[index + 1]), "checkpoint \(index / 2)")
      #expect(Int(checkpoints[index]) > previous)
      previous = Int(checkpoints[index])
      index += 2
    }
  }

  @Test("An update's parse and merge give a source's own list the same origins as compiling it alone")
  func parsedAndMerged() async throws {
    let (text, _) = Self.sample(seed: 11)
    var compiler = Compiler(blockSize: 4096, parallelism: 2)
    compiler.recordsOrigins = true
    var merging = Compiler.Merging(sourceCount: 2)
    _ = merging.add(try await compiler.parse(.text("n1.website\nn2.website\n", name: "first")), name: "first")
    let own = merging.add(try await compiler.parse(.text(text, name: "s")), name: "s")
    let alone = try await compiler.compile([.text(text, name: "s")])
    #expect(own.names == alone.allNames)
    #expect(own.origins == alone.origins)
  }

  @Test("A plain compile keeps no origins")
  func offByDefault() async throws {
    let list = try await Compiler().compile([.text("a.website\nb.website\n")])
    #expect(list.origins.count == 0)
  }
}
