import Foundation
import TestSupport
import Testing

@Suite("sanehosts profile")
struct ProfileCommandTests {
  @Test("A fresh store has the active profile default; create from a preset, duplicate, merge, use, delete")
  func lifecycle() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = try await cli.ok("profile", "list")
    #expect(list.contains("*  default"))

    let created = try await cli.ok("profile", "create", "family", "--preset", "family-safe")
    #expect(created.contains("from preset Family Safe (5 sources)"))
    let family = try #require(try await cli.json("profile", "show", "family", "--json") as? [String: Any])
    let keys = (family["sources"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
    #expect(keys == ["stevenblack-unified", "hagezi-light", "peter-lowe", "stevenblack-porn", "stevenblack-gambling"])
    #expect(family["active"] as? Bool == false)

    try await cli.ok("profile", "duplicate", "family", "family2")
    try await cli.ok("profile", "create", "work")
    try await cli.ok("sources", "add", "--profile", "work", "urlhaus-hostfile")
    let merged = try await cli.ok("profile", "merge", "work", "family2")
    #expect(merged.contains("1 source and 0 rules added"))

    try await cli.ok("profile", "use", "family2")
    let status = try #require(try await cli.json("status", "--json") as? [String: Any])
    #expect((status["profile"] as? [String: Any])?["name"] as? String == "family2")

    let refused = try await cli.run("profile", "delete", "family2")
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("is the active profile"))
    try await cli.ok("profile", "delete", "work")
    let names = try #require(try await cli.json("profile", "list", "--json") as? [[String: Any]]).compactMap {
      $0["name"] as? String
    }
    #expect(names == ["default", "family", "family2"])
  }

  @Test("Unknown presets, profiles and bad names are named in the error")
  func errors() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let preset = try await cli.run("profile", "create", "x", "--preset", "strongest")
    #expect(preset.standardError.contains("There is no preset “strongest”"))
    let missing = try await cli.run("profile", "use", "ghost")
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("There is no profile “ghost”"))
    #expect(missing.standardError.contains("default"))
    let bad = try await cli.run("profile", "create", "has space")
    #expect(bad.standardError.contains("“has space” is not a usable profile name"))
    let taken = try await cli.run("profile", "create", "DEFAULT")
    #expect(taken.standardError.contains("already exists"))
  }

  @Test(
    "Regression: a profile applied somewhere is not deleted (exit 1, the file named, how to take it off); --force deletes it with a warning; once disabled it goes"
  )
  func deleteApplied() async throws {
    let fixture = try await ApplyFixture.make()
    defer { fixture.cli.remove() }
    try await fixture.cli.ok("profile", "duplicate", "default", "other")
    try await fixture.cli.ok("apply", "--profile", "other", "--hosts-file", fixture.hosts.path)
    let refused = try await fixture.cli.run("profile", "delete", "other")
    #expect(refused.status == 1, "\(refused.standardError)")
    #expect(refused.standardError.contains("“other” is applied to \(fixture.hosts.path) (hosts, 3 names)"))
    #expect(refused.standardError.contains("sanehosts disable --hosts-file \(fixture.hosts.path)"))
    #expect(try await fixture.cli.ok("profile", "list").contains("other"))
    try await fixture.cli.ok("disable", "--hosts-file", fixture.hosts.path)
    try await fixture.cli.ok("profile", "delete", "other")
    try await fixture.cli.ok("profile", "duplicate", "default", "third")
    try await fixture.cli.ok("apply", "--profile", "third", "--hosts-file", fixture.hosts.path)
    let forced = try await fixture.cli.run("profile", "delete", "third", "--force")
    #expect(forced.status == 0 && forced.standardError.contains("still holds 3 names"), "\(forced.standardError)")
  }

  @Test("Regression: a rule added twice is already there (exit 0), and messages use the right article")
  func ruleWording() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await cli.ok("allow", "add", "a.website")
    let again = try await cli.run("allow", "add", "a.website", "b.website")
    #expect(again.status == 0)
    #expect(again.standardOutput.contains("Already there: allow rule a.website."), "\(again.standardOutput)")
    #expect(again.standardOutput.contains("Added allow rule b.website"))
    let profile = try await cli.run("profile", "create", "default")
    #expect(profile.standardError.contains("A profile “default” already exists."), "\(profile.standardError)")
  }
}
