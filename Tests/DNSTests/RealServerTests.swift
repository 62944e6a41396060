import DNS
import Foundation
import TestSupport
import Testing

/// The resolver against real dnsmasq and unbound started on 127.0.0.1.
@Suite("Resolver against real DNS servers", .serialized)
struct RealServerTests {
  private static let timeout = Duration.seconds(2)

  @Test("dnsmasq: blocked names answer 0.0.0.0 and ::, an empty address gives NXDOMAIN, others their address")
  func dnsmasq() async throws {
    try await TemporaryDirectory.with { directory in
      try await DNSServerProcess.withDnsmasq(
        arguments: ["--address=/blocked.test/#", "--address=/nx.test/", "--address=/allowed.test/192.0.2.7"],
        directory: directory.url
      ) { server in
        let resolver = localResolver(server.port)
        let (blockedA, elapsed) = await timedQuery(resolver, "blocked.test", .a, timeout: Self.timeout)
        let a = try blockedA.get()
        #expect(a.responseCode == .noError && a.addresses == [.v4(.unspecified)], "\(server.log())")
        _ = elapsed  // speed is measured by sanehosts-bench, not asserted here
        let aaaa = try await resolver.query("sub.blocked.test", .aaaa, timeout: Self.timeout)
        #expect(aaaa.addresses == [.v6(.unspecified)])
        #expect(aaaa.addresses.map(\.description) == ["::"])
        let nx = try await resolver.query("nx.test", .a, timeout: Self.timeout)
        #expect(nx.responseCode == .nxDomain && nx.answers.isEmpty)
        let allowed = try await resolver.query("allowed.test", .a, timeout: Self.timeout)
        #expect(allowed.responseCode == .noError)
        #expect(allowed.addresses.map(\.description) == ["192.0.2.7"])
        #expect(allowed.flags.isResponse && allowed.questions == [Question(name: "allowed.test", type: .a)])
      }
    }
  }

  @Test("unbound: always_null answers 0.0.0.0 and ::, refuse gives REFUSED, local-data its address")
  func unbound() async throws {
    try await TemporaryDirectory.with { directory in
      try await DNSServerProcess.withUnbound(
        serverLines: [
          #"local-zone: "blocked.test." always_null"#, #"local-zone: "refused.test." refuse"#,
          #"local-data: "allowed.test. A 192.0.2.7""#,
        ],
        directory: directory.url
      ) { server in
        let resolver = localResolver(server.port)
        let lookup = await resolver.lookup("deep.blocked.test", timeout: Self.timeout)
        #expect(try lookup.a.get().addresses == [.v4(.unspecified)], "\(server.log())")
        #expect(try lookup.aaaa.get().addresses == [.v6(.unspecified)])
        #expect(lookup.addresses.allSatisfy { $0.isUnspecified } && lookup.addresses.count == 2)
        let refused = try await resolver.query("refused.test", .a, timeout: Self.timeout)
        #expect(refused.responseCode == .refused)
        let allowed = try await resolver.query("allowed.test", .a, timeout: Self.timeout)
        #expect(allowed.responseCode == .noError && allowed.addresses.map(\.description) == ["192.0.2.7"])
        #expect(allowed.flags.authoritative)
      }
    }
  }

  @Test("Round trips to a local dnsmasq: 50 sequential queries", .timeLimit(.minutes(5)))
  func roundTrips() async throws {
    try await TemporaryDirectory.with { directory in
      try await DNSServerProcess.withDnsmasq(arguments: ["--address=/blocked.test/#"], directory: directory.url) {
        server in
        let resolver = localResolver(server.port)
        let start = ContinuousClock.now
        for index in 0..<50 {
          let reply = try await resolver.query("n\(index).blocked.test", .a, timeout: Self.timeout)
          #expect(reply.addresses == [.v4(.unspecified)])
        }
        let each = (ContinuousClock.now - start) / 50
        print("DNS round trip to local dnsmasq: \(each) per query (50 sequential)")
      }
    }
  }
}
