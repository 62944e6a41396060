import DNS
import Foundation
import TestSupport
import Testing

/// `fleet sync` and `fleet status` against a REAL Pi-hole FTL v6.4.1: a Pi-hole is verified by its own
/// DNS answers, never by what its API says it holds.
@Suite(
  "fleet sync and fleet status against a real Pi-hole FTL", .serialized, .timeLimit(.minutes(5)),
  .enabled(if: RealPihole.isAvailable, Comment(rawValue: RealPihole.unavailable)))
struct FleetPiholeTests {
  static let ads = (1...30).map { "ad-\($0).website" }
  static let swc = (1...10).map { "swc-\($0).website" }

  /// A profile with two lists served over HTTP (FTL's gravity fetches them), a Pi-hole in its fleet.
  struct Setup {
    var cli: StoreCLI
    var runner: CommandRunner
    var pihole: RealPihole

    func run(_ arguments: String...) async throws -> CommandRunner.Result { try await runner.run(arguments) }

    /// Its DNS server's addresses for `name`.
    func answer(_ name: String) async throws -> [String] {
      let reply = try await Resolver(server: pihole.dnsServer).query(name, .a, timeout: .seconds(2))
      return reply.answers.compactMap { if case .a(let address) = $0.data { address.description } else { nil } }
    }

    /// `fleet status --json`'s one report.
    func status() async throws -> (status: Int32, report: [String: Any]) {
      let result = try await run("fleet", "status", "--json")
      let reports = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
      return (result.status, reports?.first ?? ["output": result.standardOutput + result.standardError])
    }
  }

  static func with(_ body: (Setup) async throws -> Void) async throws {
    try await FixtureServer.with { lists in
      lists.route("/ads.txt", .resource(.init(Self.ads.map { "0.0.0.0 \($0)" }.joined(separator: "\n") + "\n")))
      lists.route("/swc.txt", .resource(.init(Self.swc.joined(separator: "\n") + "\n")))
      let cli = try StoreCLI()
      defer { cli.remove() }
      try await RealPihole.with { pihole in
        var runner = try cli.runner
        runner.environment["PIHOLE_PASSWORD"] = pihole.password
        let setup = Setup(cli: cli, runner: runner, pihole: pihole)
        for (name, path) in [("ads", "/ads.txt"), ("swc", "/swc.txt")] {
          let url = lists.baseURL.appending(path: path).absoluteString
          #expect(try await setup.run("sources", "add", url, "--name", name).status == 0)
        }
        #expect(try await setup.run("update", "--quiet").status == 0)
        let added = try await setup.run(
          "fleet", "add", "pha", "--pihole", pihole.baseURL, "--resolver", pihole.resolver)
        #expect(added.status == 0, "\(added.standardError)")
        try await body(setup)
      }
    }
  }

  @Test(
    "Regression: a Pi-hole with its blocking switched off is never verified (it was: “20/20 names blocked by its gravity” while its DNS answered the upstream's address)"
  )
  func blockingOff() async throws {
    try await Self.with { setup in
      let sync = try await setup.run("fleet", "sync", "--settle", "10")
      #expect(sync.status == 0, "\(sync.standardOutput)\(sync.standardError)\n\(setup.pihole.log())")
      #expect(sync.standardOutput.contains("1 of 1 replicas verified"), "\(sync.standardOutput)")
      #expect(try await setup.answer("ad-1.website") == ["0.0.0.0"])

      try await setup.pihole.setBlocking(false)
      #expect(try await setup.answer("ad-1.website") == [RealPihole.upstreamAddress])
      let (status, report) = try await setup.status()
      #expect(status == 5, "\(report)")
      #expect(report["verdict"] as? String == "differs", "\(report)")
      #expect((report["detail"] as? String)?.contains("its blocking is disabled") == true, "\(report)")
      // The names answered wrongly are named, with the answer.
      let misses = report["misses"] as? [String] ?? []
      #expect(misses.contains { $0.contains(RealPihole.upstreamAddress) }, "\(report)")
      let again = try await setup.run("fleet", "sync", "--settle", "1")
      #expect(again.status == 5)
      #expect(!again.standardOutput.contains("1 of 1 replicas verified"), "\(again.standardOutput)")
      #expect(again.standardOutput.contains("0 of 1 replicas verified"), "\(again.standardOutput)")

      try await setup.pihole.setBlocking(true)
      let (back, backReport) = try await setup.status()
      #expect(back == 0 && backReport["verdict"] as? String == "verified", "\(backReport)")
    }
  }

  @Test(
    "Regression: a list removed from the profile leaves the Pi-hole at the next fleet sync (it stayed, and its names stayed blocked, sync after sync)"
  )
  func droppedList() async throws {
    try await Self.with { setup in
      #expect(try await setup.run("fleet", "sync", "--settle", "10").status == 0)
      #expect(try await setup.answer("swc-3.website") == ["0.0.0.0"])
      #expect(try await setup.run("sources", "remove", "swc").status == 0)
      #expect(try await setup.run("update", "--quiet").status == 0)
      // Not synced yet: its answers still match what it was given, but it is behind the profile.
      let (pending, pendingReport) = try await setup.status()
      #expect(pending == 5 && pendingReport["verdict"] as? String == "behind", "\(pendingReport)")
      #expect((pendingReport["behind"] as? String)?.contains("1 dropped lists still on it") == true, "\(pendingReport)")
      let sync = try await setup.run("fleet", "sync", "--settle", "10")
      #expect(sync.status == 0, "\(sync.standardOutput)\(sync.standardError)")
      #expect(sync.standardOutput.contains("1 removed"), "\(sync.standardOutput)")
      #expect(try await setup.answer("swc-3.website") == [RealPihole.upstreamAddress])
      #expect(try await setup.answer("ad-3.website") == ["0.0.0.0"])
      let (status, report) = try await setup.status()
      #expect(status == 0 && report["verdict"] as? String == "verified", "\(report)")
    }
  }

  @Test(
    "A deny rule not yet synced leaves the Pi-hole behind, then blocked by its DNS; a wrong password is refused, not unreachable; the same Pi-hole spelled otherwise is not added twice"
  )
  func rulesPasswordAndSpelling() async throws {
    try await Self.with { setup in
      #expect(try await setup.run("fleet", "sync", "--settle", "10").status == 0)
      #expect(try await setup.run("deny", "add", "extra.website").status == 0)
      // Its DNS answers the denied name otherwise: it is behind by that rule, and names it.
      let (pending, report) = try await setup.status()
      #expect(pending == 5 && report["verdict"] as? String == "behind", "\(report)")
      #expect((report["misses"] as? [String])?.first?.hasPrefix("extra.website: ") == true, "\(report)")
      #expect((report["behind"] as? String)?.contains("1 of the profile's rules missing") == true, "\(report)")
      #expect(try await setup.run("fleet", "sync", "--settle", "10").status == 0)
      #expect(try await setup.answer("extra.website") == ["0.0.0.0"])

      var wrong = setup.runner
      wrong.environment["PIHOLE_PASSWORD"] = "not-the-password"
      let refused = try await wrong.run(["fleet", "status", "--json"])
      #expect(refused.status == 5)
      #expect(refused.standardOutput.contains("\"verdict\" : \"refused\""), "\(refused.standardOutput)")
      #expect(refused.standardOutput.contains("refused the password"), "\(refused.standardOutput)")

      let twice = try await setup.run(
        "fleet", "add", "phb", "--pihole", "127.0.0.1:\(setup.pihole.webPort)/admin", "--resolver",
        setup.pihole.resolver)
      #expect(twice.status != 0)
      #expect(twice.standardError.contains("is in the fleet already, as pha"), "\(twice.standardError)")
    }
  }
}
