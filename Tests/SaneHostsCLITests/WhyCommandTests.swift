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
    try Data("# ads\n0.0.0.0 ads.example\n||tracker.example^\n".utf8).write(to: list)
    try await cli.ok("sources", "add", list.path, "--name", "mine")
    try await cli.ok("allow", "add", "=ads.example")
    try await cli.ok("update")

    let text = try await cli.ok("why", "ads.example", "pixel.tracker.example", "nothing.example")
    #expect(text.contains("ads.example: allowed by your rule =ads.example"))
    #expect(text.contains("mine lists it (hosts), line 2: 0.0.0.0 ads.example"))
    #expect(text.contains("pixel.tracker.example: blocked through its parent tracker.example"))
    #expect(text.contains("mine lists parent tracker.example (adblock), line 3: ||tracker.example^"))
    #expect(text.contains("nothing.example: not blocked: listed by no source"))

    let json = try #require(try await cli.json("why", "--json", "pixel.tracker.example") as? [String: Any])
    let names = try #require(json["names"] as? [[String: Any]])
    #expect(names.first?["verdict"] as? String == "coveredByParent")
    let listing = try #require((names.first?["listings"] as? [[String: Any]])?.first)
    #expect(listing["line"] as? Int == 3)
    #expect(listing["matched"] as? String == "tracker.example")

    let invalid = try await cli.run("why", "bad_name!")
    #expect(invalid.status == 1)
    #expect(invalid.standardOutput.contains("not a valid name: invalid character"))
  }
}
