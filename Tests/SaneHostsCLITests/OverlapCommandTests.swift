import Foundation
import TestSupport
import Testing

@Suite("sanehosts sources overlap")
struct OverlapCommandTests {
  @Test("The table, JSON and CSV say the same: names, unique names, shares and the matrix")
  func overlap() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let one = cli.directory.file("one.txt")
    let two = cli.directory.file("two.txt")
    try Data("a.website\nb.website\nc.website\nd.website\n".utf8).write(to: one)
    try Data("0.0.0.0 c.website\n0.0.0.0 d.website\n".utf8).write(to: two)
    try await cli.ok("sources", "add", one.path, "--name", "one")
    try await cli.ok("sources", "add", two.path, "--name", "two")
    try await cli.ok("update")

    let text = try await cli.ok("sources", "overlap")
    #expect(text.contains("Profile default: 2 sources, 4 distinct names"))
    #expect(text.contains("! two adds under 1 % unique names (0 of 2)"))
    let json = try #require(try await cli.json("sources", "overlap", "--json") as? [String: Any])
    let sources = try #require(json["sources"] as? [[String: Any]])
    #expect(sources.map { $0["unique"] as? Int } == [2, 0])
    let pairs = try #require(json["pairs"] as? [[String: Any]])
    #expect(pairs.first?["shared"] as? Int == 2)
    #expect(pairs.first?["jaccard"] as? Double == 0.5)
    #expect(pairs.first?["aInB"] as? Double == 50)
    let csv = try await cli.ok("sources", "overlap", "--csv").split(separator: "\n")
    #expect(csv.first == "a,b,names_a,unique_a,names_b,shared,jaccard,a_in_b_percent")
    #expect(csv.contains("one,two,4,2,2,2,0.5000,50.00"))
    #expect(csv.contains("two,one,2,0,4,2,0.5000,100.00"))
    #expect(csv.contains("one,one,4,2,4,4,1.0000,100.00"))
  }
}
