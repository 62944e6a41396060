import Foundation

/// Runs a blocker test: checks the control domains, then probes every registry domain through a
/// sliding window, each with a timeout, the whole run within a bound.
///
/// - The control domains go first. If none gets an answer the run stops with `.noWorkingResolver`
///   (offline is not "blocked"); if all are blocked, with `.controlsBlocked`.
/// - A sliding window keeps `concurrency` probes in flight: a slow domain holds one slot, not a batch.
/// - A probe still running at `timeout` is cancelled and counts as inconclusive.
/// - When `maximumDuration` has passed, probes in flight are cancelled and the rest are not started:
///   all of them are inconclusive (“the run's time limit was reached”).
public struct TestRunner<C: Clock>: Sendable where C.Duration == Duration {
  /// How a run is paced.
  public struct Options: Sendable, Hashable {
    /// The per-probe timeout.
    public var timeout: Duration
    /// Probes in flight at once.
    public var concurrency: Int
    /// The whole run's bound (default: two timeouts plus a second).
    public var maximumDuration: Duration?

    /// Creates options.
    public init(timeout: Duration = .seconds(2), concurrency: Int = 64, maximumDuration: Duration? = nil) {
      self.timeout = timeout
      self.concurrency = max(1, concurrency)
      self.maximumDuration = maximumDuration
    }

    /// The bound in force.
    public var runBound: Duration { maximumDuration ?? timeout * 2 + .seconds(1) }
  }

  /// The probe used for every domain.
  public let probe: any Probe
  /// Pacing.
  public let options: Options
  /// The clock for timeouts and timings.
  public let clock: C

  /// Creates a runner.
  public init(probe: any Probe, options: Options = Options(), clock: C) {
    self.probe = probe
    self.options = options
    self.clock = clock
  }

  /// Runs the test over `registry` and reports every domain's outcome.
  public func run(_ registry: Registry, events: @Sendable (TestEvent) -> Void = { _ in }) async throws(TestError)
    -> TestReport
  {
    let startedAt = Date()
    let start = clock.now
    let deadline = start.advanced(by: options.runBound)
    let tested = registry.tested
    guard !tested.isEmpty else { throw .emptyRegistry }
    var warnings: [String] = []

    let controls = await probeAll(registry.controls, deadline: deadline, events: { _ in }).results
    if Task.isCancelled { throw .cancelled }
    if !controls.isEmpty {
      if controls.allSatisfy({ $0.outcome == .inconclusive }) {
        throw .noWorkingResolver(target: probe.target, reasons: controls.map(\.reason))
      }
      if !controls.contains(where: { $0.outcome == .reachable }) {
        let blocked = controls.filter { $0.outcome == .blocked }
        if blocked.count == controls.count {
          throw .controlsBlocked(target: probe.target, reasons: blocked.map { "\($0.hostname): \($0.reason)" })
        }
      }
      for control in controls where control.outcome == .blocked {
        warnings.append(
          "The control domain \(control.hostname) is blocked (\(control.reason)): the blocker may over-block.")
      }
    }

    events(.started(total: tested.count))
    let (results, cutShort) = await probeAll(tested, deadline: deadline, events: events)
    if Task.isCancelled { throw .cancelled }
    if cutShort > 0 {
      warnings.append(
        "\(cutShort) domains were not finished within the run's bound of \(Self.seconds(options.runBound)).")
    }
    return TestReport(
      startedAt: startedAt, milliseconds: Self.milliseconds(start.duration(to: clock.now)), probe: probe.kind,
      target: probe.target, timeoutMilliseconds: Self.milliseconds(options.timeout), controls: controls,
      results: results, warnings: warnings)
  }

  /// How one domain's probe ended: with the probe's own verdict, or cut short by the run's bound.
  enum Ending: Sendable, Hashable {
    case probed
    case cutShort
  }

  /// Probes domains through the sliding window; results come back in the domains' order, with how
  /// many the run's bound cut short.
  private func probeAll(_ domains: [TestDomain], deadline: C.Instant, events: @Sendable (TestEvent) -> Void) async
    -> (results: [DomainResult], cutShort: Int)
  {
    guard !domains.isEmpty else { return ([], 0) }
    var results = [DomainResult?](repeating: nil, count: domains.count)
    var cutShort = 0
    var blocked = 0
    var done = 0
    await withTaskGroup(of: (Int, DomainResult, Ending).self) { group in
      var next = 0
      // A sentinel task that ends the run at its bound.
      group.addTask {
        try? await clock.sleep(until: deadline, tolerance: nil)
        return (
          -1,
          DomainResult(
            domain: TestDomain(hostname: "", category: "", provider: ""), verdict: Verdict(.inconclusive, ""),
            milliseconds: 0),
          Ending.cutShort
        )
      }
      func startNext() {
        let index = next
        next += 1
        group.addTask {
          let (result, ending) = await probeOne(domains[index])
          return (index, result, ending)
        }
      }
      while next < domains.count && next < options.concurrency { startNext() }
      while let (index, result, ending) = await group.next() {
        if index < 0 {
          // The bound was reached: stop everything in flight; unfinished domains are inconclusive.
          group.cancelAll()
          continue
        }
        results[index] = result
        if ending == .cutShort { cutShort += 1 }
        done += 1
        if result.outcome == .blocked { blocked += 1 }
        events(.finished(result, done: done, total: domains.count, blocked: blocked))
        if done == domains.count { group.cancelAll() }
        if next < domains.count && !group.isCancelled && clock.now < deadline { startNext() }
      }
    }
    let limit = Self.runLimitReason(options.runBound)
    let all = domains.indices.map { index in
      results[index] ?? DomainResult(domain: domains[index], verdict: Verdict(.inconclusive, limit), milliseconds: 0)
    }
    return (all, cutShort + results.count { $0 == nil })
  }

  /// Probes one domain, giving up at the timeout (or when the run is cancelled).
  private func probeOne(_ domain: TestDomain) async -> (DomainResult, Ending) {
    let started = clock.now
    let timeout = options.timeout
    let verdict = await withTaskGroup(of: Verdict?.self) { group in
      group.addTask { await probe.probe(domain.hostname) }
      group.addTask {
        do {
          try await clock.sleep(until: started.advanced(by: timeout), tolerance: nil)
          return Verdict(.inconclusive, "timeout after \(Self.seconds(timeout))")
        } catch {
          return nil
        }
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    let elapsed = Self.milliseconds(started.duration(to: clock.now))
    // Cancelled (the bound, or the run): a probe that had no verdict yet, or gave up because of it, was
    // cut short; one that had already answered keeps its verdict.
    if Task.isCancelled && (verdict == nil || verdict?.outcome == .inconclusive) {
      let result = DomainResult(
        domain: domain, verdict: Verdict(.inconclusive, Self.runLimitReason(options.runBound)), milliseconds: elapsed)
      return (result, .cutShort)
    }
    return (
      DomainResult(domain: domain, verdict: verdict ?? Verdict(.inconclusive, "cancelled"), milliseconds: elapsed),
      .probed
    )
  }

  static func runLimitReason(_ bound: Duration) -> String { "not finished within the run's bound of \(seconds(bound))" }

  static func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }

  static func milliseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
  }
}
