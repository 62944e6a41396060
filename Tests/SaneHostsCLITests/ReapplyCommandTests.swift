import Foundation
import Store
import TestSupport
import Testing

@Suite("sanehosts allow add --for, allow expire, reapply")
struct ReapplyCommandTests {
  /// A store with one list, updated and applied to a hosts file of the test's own.
  static func applied(_ cli: StoreCLI) async throws -> URL {
    let list = cli.directory.file("list.txt")
    try Data("0.0.0.0 ads.website\n0.0.0.0 tracker.website\n".utf8).write(to: list)
    let hosts = cli.directory.file("hosts")
    try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
    try await cli.ok("sources", "add", list.path, "--name", "local")
    try await cli.ok("update", "--quiet")
    try await cli.ok("apply", "--hosts-file", hosts.path, "--address", "both")
    return hosts
  }

  @Test(
    "Regression: a reapply left pending is shown by status with its reason and next try, and reapply --drop-pending drops it (it was silent: nothing said it, nothing could drop it)"
  )
  func pendingShownAndDropped() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    _ = try await Self.applied(cli)
    let pending = """
      [{"profile":"default","since":"2026-12-01T10:00:00Z","attempts":3,"nextTry":"2999-01-01T00:00:00Z",\
      "reason":"dnsmasq /etc/dnsmasq.d/sanehosts.conf: verification failed"}]
      """
    try Data(pending.utf8).write(to: cli.dataDirectory.appending(path: "reapply.pending"))
    let status = try await cli.ok("status")
    #expect(
      status.contains("A reapply is pending, profile default: 3 failed reapplies since 2026-12-01T10:00:00Z"),
      "\(status)")
    #expect(status.contains("dnsmasq /etc/dnsmasq.d/sanehosts.conf: verification failed"), "\(status)")
    #expect(status.contains("sanehosts reapply --drop-pending --profile default"), "\(status)")
    // Not due: allow expire leaves it alone, applying nothing.
    let expire = try await cli.run("allow", "expire", "--json")
    #expect(expire.status == 0 && expire.standardOutput.contains("\"profiles\" : [\n\n  ]"), "\(expire.standardOutput)")
    let dropped = try await cli.ok("reapply", "--drop-pending")
    #expect(dropped.hasPrefix("Dropped the pending reapply of profile default: 3 failed reapplies"), "\(dropped)")
    #expect(!(try await cli.ok("status")).contains("A reapply is pending"))
    #expect(try await cli.ok("reapply", "--drop-pending") == "No reapply was pending.\n")
  }

  @Test("Allowed for 1 hour: listed and in status with its end; bad spans named; --for and --until not both")
  func forAWhile() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let added = try await cli.ok("allow", "add", "ads.website", "--for", "1h")
    #expect(
      added.contains("Added allow rule ads.website (subdomains, until ") && added.contains("(in 1 h))"), "\(added)")
    let listed = try #require(try await cli.json("allow", "list", "--json") as? [[String: Any]])
    #expect(listed.first?["expiresAt"] as? String != nil)
    #expect(try await cli.ok("allow", "list").contains("ENDS"))
    let status = try await cli.ok("status")
    #expect(status.contains("Allowed for a while:\n  ads.website until "), "\(status)")
    let again = try await cli.ok("allow", "add", "ads.website")
    #expect(again.contains("Changed: allow rule ads.website now for good."), "\(again)")

    let bad = try await cli.run("allow", "add", "x.website", "--for", "soon")
    #expect(bad.status == 64 && bad.standardError.contains("--for: “soon” is not a duration"), "\(bad.standardError)")
    let both = try await cli.run("allow", "add", "x.website", "--for", "1h", "--until", "23:59")
    #expect(both.standardError.contains("Give --for or --until, not both."))
    let past = try await cli.run("allow", "add", "x.website", "--until", "2020-01-01 00:00")
    #expect(past.standardError.contains("is not a time to come"), "\(past.standardError)")
    let deny = try await cli.run("deny", "add", "x.website", "--for", "1h")
    #expect(deny.status == 64, "deny has no --for")
  }

  @Test("allow expire: an ended rule is removed and the hosts file applied again the way it was (both addresses)")
  func expire() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let hosts = try await Self.applied(cli)
    let idle = try await cli.ok("allow", "expire")
    #expect(idle == "No allow rule has ended.\n")
    #expect(try await cli.ok("allow", "expire", "--quiet").isEmpty)

    // A rule that ended a minute ago (the store takes any end; the command line only ends to come).
    let store = try Store.open(DataDirectory(url: cli.dataDirectory))
    try store.addRule("=tracker.website", action: .allow, expiresAt: Date().addingTimeInterval(-60))
    try await cli.ok("apply", "--hosts-file", hosts.path, "--address", "both")
    #expect(!(try String(contentsOf: hosts, encoding: .utf8).contains("tracker.website")))

    let outcome = try #require(try await cli.json("allow", "expire", "--json") as? [String: Any])
    let ended = try #require(outcome["ended"] as? [[String: Any]])
    #expect(ended.first?["rule"] as? String == "=tracker.website")
    let text = try String(contentsOf: hosts, encoding: .utf8)
    #expect(text.contains("0.0.0.0 tracker.website") && text.contains(":: tracker.website"), "\(text)")
    #expect((try await cli.json("allow", "list", "--json") as? [Any])?.isEmpty == true)
  }

  @Test("reapply: every place, one line each; nothing applied says so; --profile must name a profile")
  func reapply() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    #expect(try await cli.ok("reapply") == "Applied nowhere yet: nothing to apply again (`sanehosts apply`).\n")
    let hosts = try await Self.applied(cli)
    try await cli.ok("deny", "add", "new.website")
    let done = try await cli.ok("reapply")
    #expect(done.hasPrefix("\(hosts.path) (hosts, profile default): 3 names, +2 −0"), "\(done)")
    #expect(try String(contentsOf: hosts, encoding: .utf8).contains(":: new.website"))
    #expect(try await cli.ok("reapply", "--quiet").isEmpty)
    let unknown = try await cli.run("reapply", "--profile", "nope")
    #expect(unknown.status == 1 && unknown.standardError.contains("nope"))
  }
}
