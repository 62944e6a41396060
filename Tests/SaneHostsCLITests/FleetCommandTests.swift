import Foundation
import TestSupport
import Testing

@Suite("sanehosts fleet")
struct FleetCommandTests {
  @Test("add, list, show and remove a profile's replicas; JSON; how each is fed, checked before anything is stored")
  func addListShowRemove() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    #expect(try await cli.ok("fleet").contains("No replicas yet."))
    #expect(
      try await cli.ok("fleet", "add", "upstairs", "--pihole", "pi.hole")
        == "Added replica upstairs to profile default: the Pi-hole pi.hole, kept the same through its API.\n")
    // A transfer replica: its configuration on standard output, naming the primary as it reaches it.
    let core = try await cli.ok(
      "fleet", "add", "core", "--resolver", "10.0.0.2:53", "--kind", "unbound", "--primary", "10.0.0.1")
    #expect(core.hasPrefix("# Written by SaneHosts: a secondary of sanehosts.rpz from 10.0.0.1:53."), "\(core)")
    #expect(core.contains("primary: 10.0.0.1@53"))
    try await cli.ok("fleet", "add", "laptop", "--resolver", "[::1]:5353")
    let list = try await cli.ok("fleet", "list")
    #expect(list.contains("core      zone transfer (unbound)  10.0.0.2:53"), "\(list)")
    #expect(list.contains("laptop    verified only"), "\(list)")
    let json = try #require(try await cli.json("fleet", "list", "--json") as? [[String: Any]])
    #expect(json.map { $0["name"] as? String } == ["core", "laptop", "upstairs"])
    #expect(json.first?["feed"] as? String == "transfer")
    #expect(json.first?["primaryAddress"] as? String == "10.0.0.1")
    #expect(try await cli.ok("fleet", "show", "CORE").hasPrefix("Replica core: a unbound server at 10.0.0.2:53"))

    // Refused, nothing stored: no feed, a kind without a resolver, a kind no server of transfer has, a
    // bad address, a name used already.
    for arguments in [
      ["fleet", "add", "x"], ["fleet", "add", "x", "--pihole", "p", "--kind", "bind"],
      ["fleet", "add", "x", "--resolver", "10.0.0.3", "--kind", "dnsmasq"],
      ["fleet", "add", "x", "--resolver", "not-an-address"], ["fleet", "add", "core", "--resolver", "10.0.0.4"],
      ["fleet", "add", "x", "--resolver", "10.0.0.3", "--kind", "bind"],
      ["fleet", "add", "x", "--resolver", "10.0.0.3", "--write", "/tmp/x.conf"],
      ["fleet", "add", "x", "--resolver", "10.0.0.3", "--kind", "bind", "--primary", "primary.lan"],
    ] {
      let refused = try await cli.runner.run(arguments)
      #expect(refused.status != 0, "\(arguments)")
    }
    #expect(
      try await cli.runner.run(["fleet", "add", "core", "--resolver", "10.0.0.4"]).standardError.contains("core"))

    try await cli.ok("fleet", "remove", "laptop")
    let left = try #require(try await cli.json("fleet", "list", "--json") as? [[String: Any]])
    #expect(left.map { $0["name"] as? String } == ["core", "upstairs"])
    #expect(try await cli.runner.run(["fleet", "remove", "laptop"]).status == 1)
    // Another profile's fleet is its own.
    try await cli.ok("profile", "create", "kids")
    #expect(try await cli.ok("fleet", "list", "--profile", "kids").contains("No replicas yet."))
  }
}

@Suite("sanehosts fleet add --write")
struct FleetAddWriteTests {
  @Test(
    "--write writes a BIND secondary's configuration with --copy, and says so; the file is what a secondary includes")
  func write() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let file = cli.directory.file("bind2.conf")
    let result = try await cli.runner.run([
      "fleet", "add", "bind2", "--resolver", "10.0.0.3", "--kind", "bind", "--primary", "10.0.0.1:5301", "--write",
      file.path, "--copy", "/var/cache/bind/copy.rpz", "--data-dir", cli.directory.url.path,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("Wrote its configuration to \(file.path)"))
    #expect(!result.standardError.contains("warning:"), "no memory given, no warning")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains("primaries { 10.0.0.1 port 5301; };") && text.contains("file \"/var/cache/bind/copy.rpz\";"))
  }

  @Test("--memory is kept, and a replica the profile would fill more than half of is warned about")
  func memory() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = cli.directory.file("list.txt")
    try Data((0..<2000).map { "n\($0).website\n" }.joined().utf8).write(to: list)
    try await cli.ok("sources", "add", list.path)
    try await cli.ok("update", "--quiet")
    let small = try await cli.runner.run([
      "fleet", "add", "tiny", "--resolver", "10.0.0.3", "--kind", "unbound", "--primary", "10.0.0.1", "--memory", "2M",
    ])
    #expect(
      small.status == 0 && small.standardError.contains("warning: tiny has 2 MiB: unbound (rpz)"),
      "\(small.standardError)")
    let json = try #require(try await cli.json("fleet", "show", "tiny", "--json") as? [String: Any])
    #expect(json["memoryMiB"] as? Int == 2)
    let refused = try await cli.runner.run(["fleet", "add", "x", "--resolver", "10.0.0.4", "--memory", "lots"])
    #expect(refused.status == 64 && refused.standardError.contains("--memory takes a size such as 512M or 1G"))
  }
}
