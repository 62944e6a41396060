import AsyncHTTPClient
import BlockerTest
import DNS
import Foundation
import Store

/// A blocker test from the probe to the finished report, once for `sanehosts test` and the dashboard's
/// Test page: the probe made for where the names are asked, the concurrency that allows, the HTTPS
/// records a system-resolver run adds, and which lists would block each reachable name.
public struct BlockerTestRun: Sendable {
  /// Where the names are asked.
  public enum Through: Sendable {
    /// The system resolver (getaddrinfo: /etc/hosts, nsswitch, the configured servers).
    case system
    /// One DNS server, asked directly.
    case dns(Resolver)
    /// HTTPS connections, for blockers that act on connections.
    case https

    /// The probe's kind.
    public var kind: ProbeKind {
      switch self {
      case .system: .system
      case .dns: .dns
      case .https: .https
      }
    }
  }

  /// Where the names are asked.
  public var through: Through
  /// How long each answer may take.
  public var timeout: Duration
  /// Probes in flight at once (nil: `defaultConcurrency(for:)`).
  public var concurrency: Int?
  /// The whole run's bound (nil: the runner's).
  public var maximumDuration: Duration?
  /// The addresses that count as blocked.
  public var sinkholes: Sinkholes
  /// For a system-resolver run, the DNS server asked for HTTPS records as `IP[:port]` (nil: the first
  /// `nameserver` of /etc/resolv.conf).
  public var httpsRecordsFrom: String?

  /// A run through `through`, each answer given `timeout`.
  public init(
    through: Through, timeout: Duration, concurrency: Int? = nil, maximumDuration: Duration? = nil,
    sinkholes: Sinkholes = Sinkholes(), httpsRecordsFrom: String? = nil
  ) {
    self.through = through
    self.timeout = timeout
    self.concurrency = concurrency
    self.maximumDuration = maximumDuration
    self.sinkholes = sinkholes
    self.httpsRecordsFrom = httpsRecordsFrom
  }

  /// Probes in flight unless told: 16 HTTPS connections (each a TLS handshake), 64 lookups.
  public static func defaultConcurrency(for kind: ProbeKind) -> Int { kind == .https ? 16 : 64 }

  /// Probes `registry`, each event to `events`, then finishes the report: a system run's HTTPS records,
  /// the sources that list each reachable name and the CNAME leaks they reveal (`annotated(with:)`).
  /// Not saved: `History.save` does that, after a caller's additions (a Pi-hole's coverage).
  public func run(
    _ registry: Registry, store: Store, events: @Sendable (TestEvent) -> Void = { _ in }
  ) async throws -> TestReport {
    switch through {
    case .system: return try await run(registry, with: SystemProbe(sinkholes: sinkholes), store: store, events: events)
    case .dns(let resolver):
      let probe = DNSProbe(resolver: resolver, sinkholes: sinkholes, timeout: timeout)
      return try await run(registry, with: probe, store: store, events: events)
    case .https:
      // Only an HTTPS run has an HTTP client to start and shut down.
      let client = HTTPSProbe.makeClient(timeout: timeout)
      do {
        let probe = HTTPSProbe(sinkholes: sinkholes, timeout: timeout, client: client)
        let report = try await run(registry, with: probe, store: store, events: events)
        try? await client.shutdown()
        return report
      } catch {
        try? await client.shutdown()
        throw error
      }
    }
  }

  private func run(
    _ registry: Registry, with probe: any Probe, store: Store, events: @Sendable (TestEvent) -> Void
  ) async throws -> TestReport {
    let options = TestRunner<ContinuousClock>.Options(
      timeout: timeout, concurrency: concurrency ?? Self.defaultConcurrency(for: through.kind),
      maximumDuration: maximumDuration)
    var report = try await TestRunner(probe: probe, options: options, clock: ContinuousClock()).run(
      registry, events: events)
    if case .system = through {
      // A hosts file answers only A and AAAA: the HTTPS records come from the DNS server behind it.
      report = await report.checkingHTTPSRecords(
        through: TestPlan.httpsRecordServer(explicit: httpsRecordsFrom), timeout: timeout)
    }
    return await report.annotated(with: store)
  }
}
