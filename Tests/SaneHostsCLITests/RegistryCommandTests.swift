import Foundation
import TestSupport
import Testing

@Suite("sanehosts registry")
struct RegistryCommandTests {
  @Test("list shows the built-in domains; add and remove the user's own, which list marks")
  func addListRemove() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = try await cli.ok("registry", "list")
    #expect(list.split(separator: "\n").count == 1 + 128 + 3)
    try await cli.ok("registry", "add", "Tracker.Online.", "--category", "Local", "--provider", "Me")
    let mine = try await cli.ok("registry", "list", "--category", "local")
    #expect(mine.contains("Local     Me        tracker.online  (yours)") || mine.contains("tracker.online  (yours)"))
    let json = try #require(try await cli.json("registry", "list", "--json") as? [[String: Any]])
    #expect(json.contains { $0["hostname"] as? String == "tracker.online" && $0["isCustom"] as? Bool == true })
    let builtIn = try await cli.run("registry", "remove", "ads.linkedin.com")
    #expect(builtIn.status != 0 && builtIn.standardError.contains("built into the registry"))
    try await cli.ok("registry", "remove", "tracker.online")
    let again = try await cli.run("registry", "remove", "tracker.online")
    #expect(again.status == 1 && again.standardError.contains("There is no test domain “tracker.online”"))
    let bad = try await cli.run("registry", "add", "not a name", "--category", "X")
    #expect(bad.status == 1 && bad.standardError.contains("is not a valid hostname"))
  }

  @Test("Regression: adding a domain the registry has says so (it said “Added”); a changed category is an update")
  func addingWhatIsThere() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let builtIn = try await cli.run("registry", "add", "ad.doubleclick.net", "--category", "Ads")
    #expect(builtIn.standardError.contains("is in the built-in registry already (Ads, DoubleClick): nothing added"))
    #expect(
      try await cli.run("registry", "add", "mine.website", "--category", "Local").standardError.hasPrefix("Added"))
    let again = try await cli.run("registry", "add", "mine.website", "--category", "Local")
    #expect(again.standardError.contains("is in your registry already"), "\(again.standardError)")
    let moved = try await cli.run("registry", "add", "mine.website", "--category", "Other")
    #expect(moved.standardError.hasPrefix("Updated mine.website"), "\(moved.standardError)")
  }
}
