import Foundation
import TestSupport
import Testing

@Suite("sanehosts sources")
struct SourcesCommandTests {
  @Test("Add by catalog id, URL and file; list; disable and enable; remove")
  func manage() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let file = cli.directory.file("mine.txt")
    try "tracker.website\n".write(to: file, atomically: true, encoding: .utf8)

    let added = try await cli.ok(
      "sources", "add", "peter-lowe", "https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts", file.path)
    #expect(added.contains("Added peter-lowe"))
    // A URL that is in the catalog becomes that catalog entry.
    #expect(added.contains("Added stevenblack-unified"))
    #expect(added.contains("Added mine"))

    try await cli.ok("sources", "disable", "mine")
    let sources = try #require(try await cli.json("sources", "list", "--json") as? [[String: Any]])
    #expect(sources.map { $0["key"] as? String } == ["peter-lowe", "stevenblack-unified", "mine"])
    #expect(sources.map { $0["enabled"] as? Bool } == [true, true, false])
    #expect(sources[0]["status"] as? String == "new")

    let table = try await cli.ok("sources", "list")
    #expect(table.contains("SOURCE"))
    #expect(table.contains("never"))

    try await cli.ok("sources", "enable", "mine")
    try await cli.ok("sources", "remove", "peter-lowe")
    let after = try #require(try await cli.json("sources", "list", "--json") as? [[String: Any]])
    #expect(after.map { $0["key"] as? String } == ["stevenblack-unified", "mine"])
  }

  @Test("Bad sources are refused with what to do, and nothing is added")
  func refused() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let unknown = try await cli.run("sources", "add", "not-a-list")
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("sanehosts catalog"))
    // Plain http to another machine is refused when it is added, not at the first update.
    let insecure = try await cli.run("sources", "add", "http://example.org/list")
    #expect(insecure.status == 1)
    #expect(insecure.standardError.contains("uses plain http to another machine"), "\(insecure.standardError)")
    #expect(insecure.standardError.contains("Use the https:// address of the list"))
    let missingFile = try await cli.run("sources", "add", "/nonexistent/list.txt")
    #expect(missingFile.standardError.contains("is not an existing file"))
    try await cli.ok("sources", "add", "adaway")
    // Regression: adding what is there is idempotent (exit 0, said), not an error.
    let twice = try await cli.run("sources", "add", "adaway")
    #expect(twice.status == 0, "\(twice.standardError)")
    #expect(twice.standardOutput.contains("Already there: adaway"), "\(twice.standardOutput)")
    let remove = try await cli.run("sources", "remove", "ghost")
    // Regression: "Known source in profile “default”s".
    #expect(remove.standardError.contains("Known sources in profile “default”: adaway"), "\(remove.standardError)")
    let sources = try #require(try await cli.json("sources", "list", "--json") as? [[String: Any]])
    #expect(sources.count == 1)
  }

  @Test(
    "sources add URL --mirror URL2: the primary gone, update fetches the mirror; status and the source's JSON say the copy came from it"
  )
  func mirror() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    try await FixtureServer.with { server in
      server.route("/list", .status(404))
      server.route("/mirror", .resource(.init(Array("0.0.0.0 ads.website\n0.0.0.0 tracker.website\n".utf8))))
      let refused = try await cli.run("sources", "add", server.url("/list").absoluteString, "--mirror", "ftp://x/y")
      #expect(refused.status != 0 && refused.standardError.contains("is not an http(s) URL"))
      try await cli.ok(
        "sources", "add", server.url("/list").absoluteString, "--name", "moved", "--mirror",
        server.url("/mirror").absoluteString)
      let update = try await cli.run("update")
      #expect(update.status == 0, "\(update.standardError)")
      let status = try await cli.run("status")
      let text = status.standardOutput + status.standardError
      #expect(text.contains("moved is served by its mirror \(server.url("/mirror").absoluteString) only"), "\(text)")
      let json = try #require(try await cli.json("sources", "list", "--json") as? [[String: Any]])
      #expect(json.first?["servedFrom"] as? String == server.url("/mirror").absoluteString)
      #expect(json.first?["mirrors"] as? [String] == [server.url("/mirror").absoluteString])
    }
  }

  @Test(
    "Regression: a scheme SaneHosts does not download is named (ftp:// read as “not an existing file”); a local list never takes a catalog id as its name, and a taken name says how to choose another"
  )
  func namesAndSchemes() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let ftp = try await cli.run("sources", "add", "ftp://x/y")
    #expect(ftp.status == 1 && ftp.standardError.contains("uses ftp://, which SaneHosts does not download"))
    let local = cli.directory.file("anudeep-coinminer.txt")
    try Data("0.0.0.0 ads.website\n".utf8).write(to: local)
    let added = try await cli.run("sources", "add", local.path)
    #expect(added.standardOutput.contains("Added anudeep-coinminer-2"), "\(added.standardOutput)")
    let catalog = try await cli.run("sources", "add", "anudeep-coinminer")
    #expect(catalog.status == 0, "\(catalog.standardError)")
    let other = cli.directory.file("other.txt")
    try Data("0.0.0.0 other.website\n".utf8).write(to: other)
    let taken = try await cli.run("sources", "add", other.path, "--name", "anudeep-coinminer")
    #expect(taken.standardError.contains("`--name NAME`"), "\(taken.standardError)")
  }
}
