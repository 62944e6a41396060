import Foundation
import TestSupport
import Testing

@Suite("sanehosts sources diff / accept, and list health in update and status")
struct SourcesCommandHealthTests {
  static func hosts(_ range: Range<Int>) -> Data { Data(range.map { "0.0.0.0 n\($0).website\n" }.joined().utf8) }

  @Test("A shrink is held (exit 2, JSON says so), diffed, accepted; status shows the trend and staleness")
  func heldDiffAccept() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = cli.directory.file("list.txt")
    try (Data("# Last modified: 24 Jul 2022 12:00 UTC\n".utf8) + Self.hosts(0..<100)).write(to: list)
    try await cli.ok("sources", "add", list.path, "--name", "l")
    try await cli.ok("update")
    let one = try await cli.ok("sources", "diff", "l")
    #expect(one.contains("l has only one copy so far: there is nothing to compare yet"))

    try Self.hosts(30..<70).write(to: list)
    let held = try await cli.run("update", "--json")
    #expect(held.status == 2)
    let health = try #require(
      held.standardOutput.split(separator: "\n").last.flatMap {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      })
    #expect(health["event"] as? String == "health")
    #expect(health["held"] as? [String] == ["l"])
    #expect((health["stale"] as? [[String: Any]])?.first?["reason"] as? String == "headerDate")

    let status = try await cli.ok("status")
    #expect(status.contains("held back as a suspicious shrink"))
    #expect(status.contains("may be stale: its header dates it 2022-07-24"))

    let preview = try await cli.ok("sources", "diff", "l", "--held", "--limit", "2")
    #expect(preview.contains("l: current copy 100 names → held copy 40 names"))
    #expect(preview.contains("0 added, 60 removed"))
    #expect(preview.contains("- n0.website\n- n1.website\n  … and 58 more removed"))

    let accepted = try await cli.ok("sources", "accept", "l")
    #expect(accepted.contains("Accepted l's new copy: 40 names, 100 before."))
    let table = try await cli.ok("sources", "list")
    #expect(table.contains("NAMES  BEFORE  CHANGE"))
    #expect(table.contains("40     100     −60"))
    let json = try #require(try await cli.json("sources", "diff", "l", "--json", "--all") as? [String: Any])
    #expect(json["removedCount"] as? Int == 60)
    #expect((json["removed"] as? [String])?.count == 60)
    let again = try await cli.run("sources", "accept", "l")
    #expect(again.status == 1)
    #expect(again.standardError.contains("has no copy held back"))
  }
}
