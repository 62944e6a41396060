import Apply
import DNS
import Foundation
import Locking
import TestSupport
import Testing

/// The fleet end to end: a real BIND primary, real BIND and unbound secondaries in network namespaces
/// of their own, two Pi-hole doubles and a dead one; `fleet add`, `fleet sync`, `fleet status`.
@Suite(
  "fleet sync and fleet status against real servers across a real network stack", .serialized,
  .enabled(if: NetworkLab.isAvailable, "needs root and ip (iproute2) for network namespaces"))
struct FleetSyncTests {
  static let first = (1...200).map { "tracker-\($0).website" }
  static let second = Array(first.dropFirst(10)) + ["fresh-1.website", "fresh-2.website", "fresh-3.website"]

  @Test(
    "Two Pi-holes and a BIND/unbound pair: one sync verifies all four; a dead Pi-hole is unreachable; a secondary cut off from the primary is caught stale by its answers, and blocking never lapses during a sync",
    .timeLimit(.minutes(5)))
  func fleet() async throws {
    try await FixtureServer.with { lists in
      let url = lists.baseURL.appending(path: "list.txt").absoluteString
      lists.route("/list.txt", .resource(.init(Self.first.joined(separator: "\n") + "\n")))
      let cli = try StoreCLI()
      defer { cli.remove() }
      var runner = try cli.runner
      runner.environment["PIHOLE_PASSWORD"] = "secret"
      #expect(try await runner.run(["sources", "add", url]).status == 0)
      #expect(try await runner.run(["update", "--quiet"]).status == 0)
      try await PiholeDouble.with { upstairs in
        try await PiholeDouble.with { downstairs in
          for double in [upstairs, downstairs] { double.setContents(Self.first, forAddress: url) }
          try await NetworkLab.with(hosts: 4) { lab in
            try await Self.run(
              runner: runner, cli: cli, lab: lab, piholes: [upstairs, downstairs], lists: lists, url: url)
          }
        }
      }
    }
  }

  static func run(
    runner: CommandRunner, cli: StoreCLI, lab: NetworkLab, piholes: [PiholeDouble], lists: FixtureServer, url: String
  ) async throws {
    let (upstream, primaryHost, bindHost, unboundHost) = (lab.hosts[0], lab.hosts[1], lab.hosts[2], lab.hosts[3])
    let directory = cli.directory.url
    let output = directory.appending(path: "db.sanehosts.rpz").path
    let primaryAddress = primaryHost.address
    let apply = [
      "apply", "--target", "bind", "--output", output, "--transfer-to", bindHost.address, "--transfer-to",
      unboundHost.address, "--primary-address", primaryAddress,
    ]
    #expect(try await runner.run(apply).status == 1)  // BIND is not running yet: the configuration is written.
    for (name, double) in zip(["upstairs", "downstairs"], piholes) {
      let added = try await runner.run([
        "fleet", "add", name, "--pihole", double.baseURL, "--resolver", double.resolver,
      ])
      #expect(added.status == 0, "\(added.standardError)")
    }
    var snippets: [URL] = []
    for (name, kind, host) in [("bind2", "bind", bindHost), ("unbound2", "unbound", unboundHost)] {
      let file = directory.appending(path: "\(name).conf")
      let added = try await runner.run([
        "fleet", "add", name, "--resolver", host.address, "--kind", kind, "--primary", primaryAddress, "--write",
        file.path, "--copy", directory.appending(path: "\(name).copy").path,
      ])
      #expect(added.status == 0, "\(added.standardError)")
      snippets.append(file)
    }
    let configuration = URL(fileURLWithPath: PrimarySetup.configurationPath(output: output))
    let primary = try ServerAddress(parsing: primaryAddress)
    try await DNSServerProcess.withLabUpstream(in: upstream, of: lab, directory: directory) { _ in
      try await DNSServerProcess.withLabPrimary(
        including: configuration, in: primaryHost, of: lab, directory: directory
      ) { primaryServer in
        try await DNSServerProcess.withLabSecondary(
          SecondaryConfiguration(kind: .bind, primary: primary), snippet: snippets[0], upstream: upstream.address,
          in: bindHost, of: lab, directory: directory
        ) { bind in
          try await DNSServerProcess.withLabSecondary(
            SecondaryConfiguration(kind: .unbound, primary: primary), snippet: snippets[1],
            upstream: upstream.address, in: unboundHost, of: lab, directory: directory
          ) { unbound in
            try await Self.syncAndCheck(
              runner: runner, lab: lab, secondaries: [bind, unbound], piholes: piholes, lists: lists, url: url,
              primary: primaryAddress, logs: { primaryServer.log() + "\n" + bind.log() })
          }
        }
      }
    }
  }

  static func syncAndCheck(
    runner: CommandRunner, lab: NetworkLab, secondaries: [DNSServerProcess], piholes: [PiholeDouble],
    lists: FixtureServer, url: String, primary: String, logs: () -> String
  ) async throws {
    let sync = ["fleet", "sync", "--primary-address", primary, "--settle", "5"]
    let first = try await runner.run(sync)
    let fleetList = try await runner.run(["fleet", "list"])
    let statusText = try await runner.run(["fleet", "status"])
    // docs/fleet.md's transcript comes from this run: SANEHOSTS_FLEET_TRANSCRIPT=PATH writes it.
    if let path = ProcessInfo.processInfo.environment["SANEHOSTS_FLEET_TRANSCRIPT"] {
      let text = [
        ("fleet list", fleetList), ("fleet sync --primary-address \(primary)", first), ("fleet status", statusText),
      ].map { "$ sanehosts \($0.0)\n\($0.1.standardError)\($0.1.standardOutput)" }.joined(separator: "\n")
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
    #expect(first.status == 0, "\(first.standardOutput)\n\(first.standardError)\n\(logs())")
    #expect(first.standardOutput.contains("4 of 4 replicas verified"), "\(first.standardOutput)")
    let status = try await runner.run(["fleet", "status", "--json"])
    #expect(status.status == 0, "\(status.standardOutput)\n\(status.standardError)")
    let reports = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]] ?? []
    #expect(reports.map { $0["verdict"] as? String } == Array(repeating: "verified", count: 4))
    // BIND's secondary answers the zone's SOA: its serial is the primary's.
    let bindReport = reports.first { $0["name"] as? String == "bind2" }
    #expect((bindReport?["serves"] as? String)?.hasPrefix("sanehosts.rpz serial ") == true, "\(reports)")

    // A dead Pi-hole is unreachable, and the others stay verified.
    try await FreePort.withClosedPort { port in
      #expect(try await runner.run(["fleet", "add", "attic", "--pihole", "http://127.0.0.1:\(port)"]).status == 0)
      let dead = try await runner.run(["fleet", "status"])
      #expect(dead.status == 5)
      #expect(
        dead.standardOutput.contains("attic") && dead.standardOutput.contains("unreachable"), "\(dead.standardOutput)")
      #expect(try await runner.run(["fleet", "remove", "attic"]).status == 0)
    }

    // Regression: a deny rule checked before it was synced made the check record every replica verified
    // at the profile with it; cut off, unbound was then "verified" by a sync it never received.
    #expect(try await runner.run(["deny", "add", "stale-x.website"]).status == 0)
    let unsynced = try await runner.run(["fleet", "status", "--json"])
    #expect(unsynced.status == 5)
    let unsyncedReports =
      try JSONSerialization.jsonObject(with: Data(unsynced.standardOutput.utf8)) as? [[String: Any]] ?? []
    for name in ["bind2", "unbound2"] {
      let report = unsyncedReports.first { $0["name"] as? String == name }
      #expect(report?["verdict"] as? String == "behind", "\(unsyncedReports)")
      #expect((report?["behind"] as? String)?.contains("run sanehosts fleet sync") == true, "\(unsyncedReports)")
    }
    // unbound's namespace loses its route to the primary: it takes no transfer from now on.
    try await lab.blackhole(primary, in: lab.hosts[3])
    let denied = try await runner.run(sync)
    #expect(denied.status == 5, "\(denied.standardOutput)")
    #expect(denied.standardOutput.contains("3 of 4 replicas verified"), "\(denied.standardOutput)")
    let deniedLine = denied.standardOutput.split(separator: "\n").first { $0.hasPrefix("unbound2: ") }
    #expect(deniedLine?.contains("stale-x.website: ") == true, "\(denied.standardOutput)")
    lists.route("/list.txt", .resource(.init(second.joined(separator: "\n") + "\n")))
    for double in piholes { double.setContents(second, forAddress: url) }
    #expect(try await runner.run(["update", "--quiet"]).status == 0)
    // While the sync runs, a name listed before and after is asked again and again: never let through.
    let lapses = try await withThrowingTaskGroup(of: [String].self) { group in
      let stop = Locked(false)
      group.addTask {
        var lapses: [String] = []
        let digs = try secondaries.map { try Dig(server: $0.address, port: 53) }
        while !stop.withLock({ $0 }) {
          for dig in digs {
            let answer = (try? await dig.status("tracker-100.website")) ?? "no answer"
            if answer != "NXDOMAIN" { lapses.append("\(dig.server): \(answer)") }
          }
        }
        return lapses
      }
      let second = try await runner.run(sync)
      stop.withLock { $0 = true }
      #expect(second.status == 5, "\(second.standardOutput)\n\(second.standardError)")
      #expect(second.standardOutput.contains("3 of 4 replicas verified"), "\(second.standardOutput)")
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(lapses.isEmpty, "\(lapses)")
    let stale = try await runner.run(["fleet", "status"])
    #expect(stale.status == 5)
    let line = stale.standardOutput.split(separator: "\n").first { $0.hasPrefix("unbound2 ") }
    #expect(line?.contains("differs") == true, "\(stale.standardOutput)")
    #expect(stale.standardOutput.contains("unbound2: "), "\(stale.standardOutput)")
    let bindLine = stale.standardOutput.split(separator: "\n").first { $0.hasPrefix("bind2 ") }
    #expect(bindLine?.contains("verified") == true, "\(stale.standardOutput)")
  }
}

@Suite(
  "A secondary the primary refuses", .serialized,
  .enabled(if: NetworkLab.isAvailable, "needs root and ip (iproute2) for network namespaces"))
struct RefusedSecondaryTests {
  @Test(
    "A secondary left out of allow-transfer is reported with the reason: it holds no copy (SERVFAIL); sync says to reconfigure the primary",
    .timeLimit(.minutes(3)))
  func refused() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let list = cli.directory.file("list.txt")
    try Data(FleetSyncTests.first.joined(separator: "\n").utf8).write(to: list)
    try await cli.ok("sources", "add", list.path)
    try await cli.ok("update", "--quiet")
    let runner = try cli.runner
    try await NetworkLab.with(hosts: 4) { lab in
      let (upstream, primaryHost, bindHost, unboundHost) = (lab.hosts[0], lab.hosts[1], lab.hosts[2], lab.hosts[3])
      let directory = cli.directory.url
      let output = directory.appending(path: "db.sanehosts.rpz").path
      // The primary allows the unbound secondary only.
      let apply = [
        "apply", "--target", "bind", "--output", output, "--transfer-to", unboundHost.address, "--primary-address",
        primaryHost.address,
      ]
      #expect(try await runner.run(apply).status == 1)
      for (name, kind, host) in [("bind2", "bind", bindHost), ("unbound2", "unbound", unboundHost)] {
        let added = try await runner.run([
          "fleet", "add", name, "--resolver", host.address, "--kind", kind, "--primary", primaryHost.address,
          "--copy", directory.appending(path: "\(name).copy").path,
        ])
        #expect(added.status == 0, "\(added.standardError)")
      }
      let primary = try ServerAddress(parsing: primaryHost.address)
      let configuration = URL(fileURLWithPath: output + ".primary.conf")
      try await DNSServerProcess.withLabUpstream(in: upstream, of: lab, directory: directory) { _ in
        try await DNSServerProcess.withLabPrimary(
          including: configuration, in: primaryHost, of: lab, directory: directory
        ) { _ in
          try await DNSServerProcess.withLabSecondary(
            SecondaryConfiguration(kind: .bind, primary: primary, copyFile: directory.appending(path: "b.copy").path),
            upstream: upstream.address, in: bindHost, of: lab, directory: directory
          ) { _ in
            try await DNSServerProcess.withLabSecondary(
              SecondaryConfiguration(
                kind: .unbound, primary: primary, copyFile: directory.appending(path: "u.copy").path),
              upstream: upstream.address, in: unboundHost, of: lab, directory: directory
            ) { _ in
              let sync = try await runner.run([
                "fleet", "sync", "--primary-address", primaryHost.address, "--settle", "2",
              ])
              #expect(sync.status == 5, "\(sync.standardOutput)\n\(sync.standardError)")
              // The sync allowed bind2 in the configuration, which BIND reads only when told.
              #expect(sync.standardOutput.contains("run rndc reconfig on the primary"), "\(sync.standardOutput)")
              let status = try await runner.run(["fleet", "status", "--json"])
              #expect(status.status == 5)
              let reports =
                try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]] ?? []
              let bind = try #require(reports.first { $0["name"] as? String == "bind2" })
              #expect(bind["verdict"] as? String == "differs")
              #expect(
                (bind["behind"] as? String)?.hasPrefix("holds no copy of the zone (SERVFAIL for its SOA)") == true,
                "\(bind)")
              let unbound = try #require(reports.first { $0["name"] as? String == "unbound2" })
              #expect(unbound["verdict"] as? String == "verified", "\(unbound)")
            }
          }
        }
      }
    }
  }
}
