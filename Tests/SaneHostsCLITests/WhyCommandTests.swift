import Foundation
import TestSupport
import Testing

@Suite("sanehosts why")
struct WhyCommandTests {
  @Test("Text and JSON name the list, line and rule; an invalid name fails with the validator's reason")
  func why() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = cli.directory.file("list.txt")
    try Data("# ads\n0.0.0.0 ads.website\n||tracker.website^\n".utf8).write(to: list)
    try await cli.ok("sources", "add", list.path, "--name", "mine")
    try await cli.ok("allow", "add", "=ads.website")
    try await cli.ok("update")

    let text = try await cli.ok("why", "ads.website", "pixel.tracker.website", "nothing.website")
    #expect(text.contains("ads.website: allowed by your rule =ads.website"))
    #expect(text.contains("mine lists it (hosts), line 2: 0.0.0.0 ads.website"))
    #expect(text.contains("pixel.tracker.website: blocked through its parent tracker.website"))
    #expect(text.contains("mine lists parent tracker.website (adblock), line 3: ||tracker.website^"))
    #expect(text.contains("nothing.website: not blocked: listed by no source"))

    let json = try #require(try await cli.json("why", "--json", "pixel.tracker.website") as? [String: Any])
    let names = try #require(json["names"] as? [[String: Any]])
    #expect(names.first?["verdict"] as? String == "coveredByParent")
    let listing = try #require((names.first?["listings"] as? [[String: Any]])?.first)
    #expect(listing["line"] as? Int == 3)
    #expect(listing["matched"] as? String == "tracker.website")

    let invalid = try await cli.run("why", "bad_name!")
    #expect(invalid.status == 1)
    #expect(invalid.standardOutput.contains("not a valid name: invalid character"))
  }
}
