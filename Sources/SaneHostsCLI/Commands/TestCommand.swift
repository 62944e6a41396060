import Apply
import ArgumentParser
import AsyncHTTPClient
import BlockerTest
import Blocklists
import DNS
import Foundation
import Pihole
import Store
import UseCases

#if canImport(Glibc)
  import Glibc
#endif

/// `sanehosts test`: does the blocking actually work?
struct TestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Test whether ads and trackers are blocked: probe the registry's domains and score the blocker.",
    discussion: """
      Probes the registry (128 ad, analytics, error-tracker, social-tracker, mixed and OEM-telemetry \
      domains, plus yours from `sanehosts registry add`) and classifies each domain as blocked \
      (NXDOMAIN, NODATA, REFUSED, or a sinkhole address such as 0.0.0.0, ::, 127.0.0.1 or a --block-page \
      address), reachable (a routable address) or inconclusive (timeout, SERVFAIL, no network). \
      Inconclusive never counts as blocked: the score is blocked ÷ (blocked + reachable + leaking), strong ≥ 60 %, \
      moderate ≥ 30 %, weak below. Control domains that must never be blocked are probed first: if none \
      of them resolves, the run stops instead of printing a fake score.

      Probes: system (getaddrinfo, so /etc/hosts and nsswitch count), dns (A and AAAA straight to \
      --resolver IP[:port], UDP with TCP fallback), https (a HEAD request, for blockers that act on \
      connections). Probes run in a sliding window, each with --timeout, the whole run within --max-time.

      With --probe dns the verdict depends only on the two answers: a routable address in either is \
      reachable (a server that answers A and refuses AAAA does not block); either query without a usable \
      answer (timeout, SERVFAIL, garbage) is inconclusive; both answered without a routable address is \
      blocked. A domain your own allow or deny rule decides says so ("allowed by your rule x"); blocked \
      control domains leave a warning beside the score (text, JSON, JUnit, history).

      Every run is saved (see `sanehosts history`); --json prints the report (schema: \
      docs/test-report.md), --export FORMAT FILE writes text, json or junit. For each reachable domain the \
      report names the sources in your store that list it. Exit status: 0 when the run completed \
      (4 with --fail-under when the score is lower), 1 when it could not run or gave no score, 130 when \
      cancelled.
      """)

  @OptionGroup var store: StoreOptions
  @Option(help: "How to probe: system, dns or https (default: system; dns with --resolver or --pihole).")
  var probe: ProbeKind?
  @Option(help: ArgumentHelp("The DNS server for --probe dns: IP or IP:port ([v6]:port).", valueName: "address"))
  var resolver: String?
  @Option(
    help: ArgumentHelp(
      "With --probe system: the DNS server asked for the HTTPS records of the names the hosts file blocks (default: the first nameserver of /etc/resolv.conf).",
      valueName: "IP[:port]"))
  var httpsRecordsFrom: String?
  @Option(help: "Seconds before one probe counts as inconclusive.") var timeout: Double = 2
  @Option(help: "Probes in flight at once (default: 64; 16 for https).") var concurrency: Int?
  @Option(help: "Seconds the whole run may take (default: two timeouts plus one second).") var maxTime: Double?
  @Option(help: "Only these categories (repeatable; see `sanehosts registry list`).") var category: [String] = []
  @Option(help: ArgumentHelp("An address that also means blocked, such as a block page (repeatable).", valueName: "ip"))
  var blockPage: [String] = []
  @Option(help: ArgumentHelp("Also test a sample of this source's names (its key).", valueName: "source"))
  var sampleSource: String?
  @Option(help: ArgumentHelp("Also test a sample of this profile's names.", valueName: "profile"))
  var sampleProfile: String?
  @Option(help: "Names in the sample.") var sampleCount = 50
  @Option(help: "The sample's seed: the same seed picks the same names.") var seed: UInt64 = 1
  @Flag(help: "Test only the sample, not the registry.") var sampleOnly = false
  @Option(
    parsing: .upToNextOption,
    help: ArgumentHelp("Also write the report: text, json or junit, then the file.", valueName: "format file"))
  var export: [String] = []
  /// `--pihole` (its DNS port probed, then its API asked which lists and rules block each domain) and
  /// how to sign in to it.
  @OptionGroup var connection: PiholeConnectionOptions
  var pihole: String? { connection.pihole }
  @Option(help: ArgumentHelp("Exit with status 4 when the score is below this percentage.", valueName: "percent"))
  var failUnder: Double?
  @Flag(help: "Do not save the run in the history.") var noSave = false
  @OptionGroup var printing: OutputOptions
  @Flag(name: .shortAndLong, help: "Print only the summary line (and errors).") var quiet = false

  /// The probe in force: --probe, else dns when a DNS server (--resolver, --pihole) is named, else system.
  var chosenProbe: ProbeKind { TestPlan.probe(requested: probe, namesServer: resolver != nil || pihole != nil) }

  func validate() throws {
    let probe = self.chosenProbe
    if probe == .dns && resolver == nil && pihole == nil {
      throw ValidationError("--probe dns needs --resolver IP[:port], the DNS server to ask.")
    }
    if let httpsRecordsFrom {
      guard probe == .system else { throw ValidationError("--https-records-from is for --probe system.") }
      guard (try? ServerAddress(parsing: httpsRecordsFrom)) != nil else {
        throw ValidationError("--https-records-from takes the server as IP or IP:port, not “\(httpsRecordsFrom)”.")
      }
    }
    if probe != .dns && resolver != nil && pihole == nil {
      throw ValidationError("--resolver is for --probe dns, not --probe \(probe.rawValue).")
    }
    if pihole != nil && probe == .https { throw ValidationError("--pihole tests the Pi-hole's DNS: use --probe dns.") }
    if TestPlan.timeout(seconds: timeout) == nil { throw ValidationError("--timeout must be \(TestPlan.timeoutRule).") }
    if let concurrency, concurrency < 1 || concurrency > 512 {
      throw ValidationError("--concurrency must be between 1 and 512, not \(concurrency).")
    }
    if let maxTime, maxTime < timeout { throw ValidationError("--max-time must be at least --timeout.") }
    if !export.isEmpty {
      guard export.count == 2, TestReport.ExportFormat(rawValue: export[0]) != nil else {
        throw ValidationError(
          "--export takes a format (\(TestReport.ExportFormat.names)) and a file, e.g. --export junit report.xml.")
      }
    }
    if sampleSource != nil && sampleProfile != nil {
      throw ValidationError("Give --sample-source or --sample-profile.")
    }
    if sampleOnly && sampleSource == nil && sampleProfile == nil {
      throw ValidationError("--sample-only needs --sample-source or --sample-profile.")
    }
    if sampleCount < 1 { throw ValidationError("--sample-count must be at least 1.") }
    if printing.json && quiet { throw ValidationError("--json and --quiet cannot be used together.") }
  }

  func run() async throws {
    let store = try self.store.open()
    let registry = try await registry(store)
    let run = try testRun()
    let live = !printing.json && !quiet && Terminal.isInteractive(.standardError)
    let progress = TestProgress(live: live, width: Terminal.width(.standardError))

    var report: TestReport
    do {
      report = try await Interrupts.cancelling {
        try await run.run(registry, store: store) { progress.handle($0) }
      }
    } catch let error as TestError {
      progress.finish()
      if case .cancelled = error { throw ExitCode(130) }
      throw error
    } catch is CancellationError {
      progress.finish()
      throw ExitCode(130)
    }
    progress.finish()
    if let pihole {
      report.coverage = try await Self.coverage(
        of: report, pihole: pihole, connection: connection, data: store.directory)
    }
    if !noSave { report = try History(store: store).save(report) }
    if printing.json {
      Terminal.writeOutput(Text.json(report))
    } else if quiet {
      Terminal.writeOutput("\(report.score.summary)\(report.scoreWarning.map { " (warning: \($0))" } ?? "")\n")
    } else {
      Terminal.writeOutput(report.text(colour: Terminal.isInteractive(.standardOutput)))
    }
    if export.count == 2 { try Self.write(report, format: export[0], to: export[1]) }
    if let failUnder, (report.score.percent ?? 0) < failUnder { throw ExitCode(4) }
  }

  /// The domains to test: the registry (with the user's), filtered, plus a sample.
  private func registry(_ store: Store) async throws -> Registry {
    let sample: TestPlan.Sample? = sampleSource.map { .source($0) } ?? sampleProfile.map { .profile($0) }
    let plan = TestPlan(
      categories: category, sample: sample, sampleCount: sampleCount, seed: seed, sampleOnly: sampleOnly)
    return try await plan.registry(in: store)
  }

  /// The run: where the names are asked (a Pi-hole's DNS server for --pihole), and how.
  private func testRun() throws -> BlockerTestRun {
    let through: BlockerTestRun.Through
    switch pihole != nil ? .dns : chosenProbe {
    case .system: through = .system
    case .https: through = .https
    case .dns:
      through = .dns(try Resolver(server: resolver ?? TestPlan.dnsServer(atHost: PiholeHost(pihole ?? "").host)))
    }
    return BlockerTestRun(
      through: through, timeout: Self.duration(timeout), concurrency: concurrency,
      maximumDuration: maxTime.map(Self.duration), sinkholes: Sinkholes(blockPages: blockPage),
      httpsRecordsFrom: httpsRecordsFrom)
  }

  /// Asks the Pi-hole, for every tested domain, which of its lists and rules match it.
  static func coverage(
    of report: TestReport, pihole: String, connection: PiholeConnectionOptions, data: DataDirectory
  ) async throws
    -> TestReport.Coverage
  {
    let live = Terminal.isInteractive(.standardError)
    return try await connection.withClient(named: pihole, data: data) { client in
      try await PiholeCoverage.of(report, client: client) { done, total in
        if live {
          Terminal.writeError("\rAsking the Pi-hole which lists block each domain: \(done)/\(total)")
          if done == total { Terminal.writeError("\n") }
        } else if done == total {
          Terminal.writeError("Asked the Pi-hole about \(total) domains, one at a time.\n")
        }
      }
    }
  }

  static func write(_ report: TestReport, format: String, to path: String) throws {
    let text = report.exported(as: TestReport.ExportFormat(rawValue: format) ?? .text)
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CommandFailure(
        "Cannot write the report to \(path): \(error.localizedDescription).",
        suggestion: "Check that its folder exists and that you may write there.")
    }
  }

  static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
}

extension ProbeKind: ExpressibleByArgument {}
