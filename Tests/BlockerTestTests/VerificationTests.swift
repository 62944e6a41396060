import BlockerTest
import DNS
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Verifying what was applied")
struct VerificationTests {
  static let server = Verification.Context(reloaded: true, server: true, path: "/etc/dnsmasq.d/sanehosts.conf")

  @Test("Every sampled name blocked and the controls reachable: verified; the summary says so")
  func verified() async {
    let result = await Verification.run(
      names: ["a.website", "b.website"], controls: ["example.com"], target: "127.0.0.1:53", context: Self.server
    ) { name in
      name == "example.com" ? (Verdict(.reachable, "192.0.2.1"), 60) : (Verdict(.blocked, "NXDOMAIN"), nil)
    }
    #expect(result.passed)
    #expect(result.summary == "verified: 2/2 sampled names blocked, controls reachable")
    #expect(result.notBlocked.isEmpty && result.controls.map(\.name) == ["example.com"])
  }

  @Test(
    "Each name not blocked gets its likely cause: not reloaded, a cached answer's TTL, not loaded at all, elsewhere")
  func causes() async {
    func run(_ context: Verification.Context, blocked: Set<String>, ttl: UInt32?) async -> Verification {
      await Verification.run(
        names: ["a.website", "b.website"], controls: ["example.com"], target: "127.0.0.1:53", context: context
      ) { name in
        blocked.contains(name) ? (Verdict(.blocked, "NXDOMAIN"), nil) : (Verdict(.reachable, "192.0.2.1"), ttl)
      }
    }
    let stale = Verification.Context(reloaded: false, server: true, path: "/x.conf")
    let unloaded = await run(stale, blocked: ["a.website"], ttl: nil)
    #expect(!unloaded.passed)
    #expect(unloaded.summary == "verification failed: 1/2 sampled names blocked, controls reachable")
    #expect(unloaded.notBlocked.map(\.name) == ["b.website"])
    #expect(unloaded.notBlocked[0].cause.hasPrefix("the server was not reloaded"))
    #expect(unloaded.notBlocked[0].kind == .notReloaded)
    let cached = await run(Self.server, blocked: ["a.website"], ttl: 300)
    #expect(cached.notBlocked[0].cause.hasPrefix("a cached answer (TTL 300 s)"))
    #expect(cached.notBlocked[0].kind == .serverCache)
    let ignored = await run(Self.server, blocked: [], ttl: 0)
    #expect(
      ignored.notBlocked.allSatisfy { $0.cause.hasPrefix("the server does not load /etc/dnsmasq.d/sanehosts.conf") })
    let elsewhere = await run(Self.server, blocked: ["a.website"], ttl: 0)
    #expect(elsewhere.notBlocked[0].cause.hasPrefix("the server answers it from elsewhere"))
    #expect(
      ignored.notBlocked.allSatisfy { $0.kind == .notLoaded } && elsewhere.notBlocked[0].kind == .answeredElsewhere)
    let hosts = Verification.Context(reloaded: true, server: false, path: "/etc/hosts")
    let system = await run(hosts, blocked: ["a.website"], ttl: nil).notBlocked[0]
    #expect(system.cause.contains("--flush") && system.kind == .systemCache)
    #expect(await run(hosts, blocked: [], ttl: nil).notBlocked.allSatisfy { $0.kind == .resolverSkipsFile })
  }

  @Test("A blocked control fails the verification even when every name is blocked")
  func overBlocking() async {
    let result = await Verification.run(
      names: ["a.website"], controls: ["example.com"], target: "127.0.0.1:53", context: Self.server
    ) { _ in (Verdict(.blocked, "NXDOMAIN"), nil) }
    #expect(!result.passed)
    #expect(
      result.summary
        == "verification failed: 1/1 sampled names blocked, control domain example.com is blocked (NXDOMAIN): the target over-blocks"
    )
  }

  @Test("A lookup that never returns is inconclusive at the timeout, on the injected clock (no sleeping)")
  func timeout() async {
    let clock = ManualClock()
    async let result = Verification.run(
      names: ["slow.website"], controls: [], target: "system resolver",
      context: Verification.Context(reloaded: true, server: false, path: "/etc/hosts"), timeout: .seconds(3),
      clock: clock
    ) { _ in
      try? await Task.sleep(for: .seconds(3600))
      return (Verdict(.blocked, "late"), nil)
    }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(3))
    let finished = await result
    #expect(finished.notBlocked.first?.outcome == .inconclusive)
    #expect(finished.notBlocked.first?.cause.hasPrefix("no usable answer (timeout)") == true)
  }

  @Test("The sample is seeded: the same seed picks the same names")
  func sample() {
    let names = (0..<500).map { "n\($0).website" }
    #expect(Verification.sample(names, count: 50, seed: 1) == Verification.sample(names, count: 50, seed: 1))
    #expect(Set(Verification.sample(names, count: 50, seed: 1)).count == 50)
    #expect(Verification.sample(["a"], count: 50, seed: 1) == ["a"])
  }

  @Test(
    "A removed name a server answers with no address is still blocked unless the upstream's SOA comes with it; through the system resolver it is unconfirmed"
  )
  func removedWithoutAddress() async {
    let upstream = Verdict(.blocked, "NXDOMAIN", upstreamZone: "example")
    let local = Verdict(.blocked, "NXDOMAIN")
    let server = await Verification.run(
      names: [], removed: ["gone.website", "held.website"], controls: [], target: "127.0.0.1:53",
      context: Self.server
    ) { name in (name == "gone.website" ? upstream : local, nil) }
    #expect(!server.passed)
    #expect(server.goneUpstream == ["gone.website"])
    #expect(server.stillBlocked.map(\.name) == ["held.website"])
    #expect(server.stillBlocked.first?.kind == .removedStillBlocked)
    #expect(server.summary.contains("1/2 removed names unblocked, 1 of them gone upstream"), "\(server.summary)")
    let system = await Verification.run(
      names: [], removed: ["held.website"], controls: [], target: "system resolver",
      context: Verification.Context(reloaded: true, server: false, path: "/etc/hosts")
    ) { _ in (local, nil) }
    #expect(system.passed && system.unconfirmed == ["held.website"])
  }

  @Test("After a reload, names not yet as applied are asked again until they are, within the settle time")
  func settles() async {
    let clock = ManualClock()
    let calls = Mutex(0)
    async let result = Verification.run(
      names: [], removed: ["slow.website"], controls: [], target: "127.0.0.1:53", context: Self.server,
      timeout: .seconds(3600), settle: .seconds(60), clock: clock
    ) { _ in
      let call = calls.withLock {
        $0 += 1
        return $0
      }
      // The server answers from the old zone three times, then from the new one.
      return call < 4 ? (Verdict(.blocked, "NXDOMAIN"), nil) : (Verdict(.reachable, "192.0.2.1"), nil)
    }
    // Time moves only for the settle's 100 ms waits (the lookups' timeouts are an hour away).
    var steps = 0
    while calls.withLock({ $0 }) < 4 && steps < 100_000 {
      clock.advance(by: .milliseconds(100))
      await Task.yield()
      steps += 1
    }
    let settled = await result
    #expect(settled.passed, "\(settled.summary)")
    #expect(calls.withLock { $0 } == 4)
    #expect(settled.summary.contains("1/1 removed names unblocked"))
  }

  @Test(
    "Regression: a name an authoritative server answers (AA) is not blamed on a cached answer: no TTL is kept for it (a verification against the zone's own server said “a cached answer (TTL 60 s)”)"
  )
  func authoritativeAnswerIsNoCache() async throws {
    try await TemporaryDirectory.with { directory in
      let zone =
        "$TTL 60\n@ IN SOA ns.shop.blog. admin.shop.blog. 1 60 60 600 60\n@ IN NS ns\nns IN A 127.0.0.1\nreal IN A 198.51.100.7\n"
      try await DNSServerProcess.withAuthoritative(zoneText: zone, directory: directory.url) { server in
        let probe = DNSProbe(resolver: try Resolver(server: "127.0.0.1:\(server.port)"), timeout: .seconds(2))
        let (verdict, ttl) = await probe.verify("real.shop.blog")
        #expect(verdict.outcome == .reachable, "\(verdict)")
        #expect(ttl == nil, "an authoritative answer carries no cache's TTL")
      }
    }
  }
}
