import Foundation
import TestSupport
import Testing

@testable import SaneHostsCLI

@Suite("Store options and text helpers")
struct StoreOptionsTests {
  @Test("--data-dir wins over SANEHOSTS_HOME")
  func dataDirectory() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let other = cli.directory.file("other")
    try await cli.ok("profile", "create", "elsewhere", "--data-dir", other.path)
    #expect(FileManager.default.fileExists(atPath: other.appending(path: "sanehosts.sqlite").path))
    let here = try await cli.ok("profile", "list")
    #expect(!here.contains("elsewhere"))
  }

  @Test("An unusable data directory is a clear error")
  func unusable() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let file = cli.directory.file("plain-file")
    try "x".write(to: file, atomically: true, encoding: .utf8)
    let result = try await cli.run("status", "--data-dir", file.appending(path: "data").path)
    #expect(result.status == 1)
    #expect(result.standardError.contains("Cannot open the data directory"))
    #expect(result.standardError.contains("--data-dir or SANEHOSTS_HOME"))
  }

  @Test("Tables, ages and approximate counts")
  func text() {
    #expect(Text.table([["A", "BB"], ["ccc", "d"]]) == "A    BB\nccc  d\n")
    let now = Date()
    #expect(Text.age(nil) == "never")
    #expect(Text.age(now.addingTimeInterval(-30), now: now) == "just now")
    #expect(Text.age(now.addingTimeInterval(-600), now: now) == "10 min ago")
    #expect(Text.age(now.addingTimeInterval(-7200), now: now) == "2 h ago")
    #expect(Text.age(now.addingTimeInterval(-86_400), now: now) == "1 day ago")
    #expect(Text.approximate(950) == "950")
    #expect(Text.approximate(3_450) == "3.5k")
    #expect(Text.approximate(170_000) == "170k")
    #expect(Text.approximate(1_250_000) == "1.2M")
    #expect(Text.pad("abcdef", 4) == "abc…")
  }
}
