import Foundation
import TestSupport
import Testing

@Suite("sanehosts compile, run as a process")
struct CompileCommandTests {
  func write(_ text: String, to url: URL) throws { try Data(text.utf8).write(to: url) }

  @Test("Merges inputs of different formats, writes the output atomically and summarises on stderr")
  func merge() async throws {
    try await TemporaryDirectory.with { directory in
      try write("0.0.0.0 a.example.com\n0.0.0.0 b.example.com\nbad..name\n", to: directory.file("one.hosts"))
      try write("||b.example.com^\n||c.example.com^\n", to: directory.file("two.txt"))
      let output = directory.file("out.txt")
      let result = try await CommandRunner().run([
        "compile", directory.file("one.hosts").path, directory.file("two.txt").path, "-o", output.path, "-f", "domains",
      ])
      #expect(result.status == 0, "\(result.standardError)")
      let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
      #expect(lines == ["a.example.com", "b.example.com", "c.example.com"])
      #expect(result.standardError.contains("one.hosts (hosts): 3 lines, 2 names, 2 new, 0 duplicates, 1 rejected"))
      #expect(result.standardError.contains("1 empty label (line 3: bad..name)"))
      #expect(result.standardError.contains("3 names written as domains"))
    }
  }

  @Test("Reads standard input, applies allow and deny files, and prints JSON with --json")
  func rulesAndJSON() async throws {
    try await TemporaryDirectory.with { directory in
      try write("example.com\n", to: directory.file("allow.txt"))
      try write("added.example.org\n", to: directory.file("deny.txt"))
      let input = directory.file("in.txt")
      try write("ads.example.com\ntracker.example.net\n", to: input)
      let result = try await CommandRunner().run([
        "compile", input.path, "--allow", directory.file("allow.txt").path, "--deny", directory.file("deny.txt").path,
        "--json", "-o", directory.file("out.hosts").path,
      ])
      #expect(result.status == 0)
      let summary = try #require(
        try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
      #expect(summary["written"] as? Int == 2)
      let rules = try #require(summary["rules"] as? [[String: Any]])
      #expect(rules.first?["samples"] as? [String] == ["ads.example.com"])
      let text = try String(contentsOf: directory.file("out.hosts"), encoding: .utf8)
      #expect(text.contains("0.0.0.0 tracker.example.net\n0.0.0.0 added.example.org\n"))
    }
  }

  @Test("An input that is a web page exits 3 with a warning, and the others are still written")
  func notAList() async throws {
    try await TemporaryDirectory.with { directory in
      try write("<html><body>Not Found</body></html>\n", to: directory.file("page.html"))
      try write("0.0.0.0 a.example.com\n", to: directory.file("good.txt"))
      let result = try await CommandRunner().run([
        "compile", directory.file("page.html").path, directory.file("good.txt").path, "-o", directory.file("out").path,
      ])
      #expect(result.status == 3)
      #expect(result.standardError.contains("page.html looks like a web page (HTML), not a list"))
      #expect(try String(contentsOf: directory.file("out"), encoding: .utf8).contains("0.0.0.0 a.example.com"))
    }
  }

  @Test("A missing input is an error naming it, and no output is written")
  func missingInput() async throws {
    try await TemporaryDirectory.with { directory in
      let result = try await CommandRunner().run([
        "compile", directory.file("nope.txt").path, "-o", directory.file("out").path,
      ])
      #expect(result.status == 1)
      #expect(result.standardError.contains("Cannot read \(directory.file("nope.txt").path)"))
      #expect(directory.contents().isEmpty)
    }
  }

  @Test("- reads standard input, and the list goes to standard output without --output")
  func standardStreams() async throws {
    let result = try await CommandRunner().run(
      ["compile", "-", "--format", "adblock", "--quiet"], input: Data("0.0.0.0 a.example.com\nb.example.com\n".utf8))
    #expect(result.status == 0)
    let body = result.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("!") && !$0.hasPrefix("[") }
    #expect(body == ["||a.example.com^", "||b.example.com^"])
    #expect(result.standardError.isEmpty)
  }

  @Test("Bad options are named")
  func validation() async throws {
    let address = try await CommandRunner().run(["compile", "x", "--address", "nowhere"])
    #expect(address.standardError.contains("--address must be ipv4, ipv6, both or an IP address, not “nowhere”"))
    let format = try await CommandRunner().run(["compile", "x", "--format", "csv"])
    #expect(format.status != 0)
  }
}
