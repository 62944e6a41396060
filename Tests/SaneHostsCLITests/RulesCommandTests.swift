import Foundation
import TestSupport
import Testing

@Suite("sanehosts allow / deny")
struct RulesCommandTests {
  @Test("Add every kind of rule, list them, remove them")
  func rules() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await cli.ok("allow", "add", "example.com", "=exact.website", "*.wild.website", "/^ads[0-9]+\\./")
    try await cli.ok("deny", "add", "tracker.website", "--comment", "seen in logs")
    let allow = try #require(try await cli.json("allow", "list", "--json") as? [[String: Any]])
    #expect(
      allow.map { $0["rule"] as? String } == ["example.com", "=exact.website", "*.wild.website", "/^ads[0-9]+\\./"])
    #expect(allow.map { $0["kind"] as? String } == ["subdomains", "exact", "wildcard", "regex"])
    let deny = try #require(try await cli.json("deny", "list", "--json") as? [[String: Any]])
    #expect(deny.first?["comment"] as? String == "seen in logs")

    try await cli.ok("allow", "remove", "=exact.website")
    let after = try #require(try await cli.json("allow", "list", "--json") as? [[String: Any]])
    #expect(after.count == 3)
  }

  @Test("Invalid rules name the rule and the reason")
  func invalid() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let regex = try await cli.run("allow", "add", "/([a-z/")
    #expect(regex.status == 1)
    #expect(regex.standardError.contains("is not a valid regular expression"))
    let denyRegex = try await cli.run("deny", "add", "/ads/")
    #expect(denyRegex.standardError.contains("a deny rule must be a name"))
    let name = try await cli.run("allow", "add", "bad_name!")
    #expect(name.standardError.contains("“bad_name!”"))
  }

  @Test(
    "Regression: deny --help opens with what a deny rule does (it opened with the allow text); neither says rules wait for an update"
  )
  func helpOpensWithItsOwnRules() async throws {
    let runner = try CommandRunner()
    let deny = try await runner.run(["deny", "--help"]).standardOutput
    let allow = try await runner.run(["allow", "--help"]).standardOutput
    #expect(deny.contains("(names always blocked).\n\nexample.com (or =example.com) denies the name"), "\(deny)")
    #expect(allow.contains("(names never blocked).\n\nexample.com allows the name"), "\(allow)")
    #expect(!deny.contains("next `sanehosts update`") && !allow.contains("next `sanehosts update`"))
  }
}
