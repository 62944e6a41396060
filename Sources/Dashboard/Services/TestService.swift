import BlockerTest
import DNS
import Foundation
import Loading
import Store
import UseCases

/// The blocker test as a dashboard job: start it with the page's (or the settings') probe, cancel it,
/// watch it; each finished run goes to the history.
struct TestService: Sendable {
  /// The test job.
  let job: Job<TestStatus>
  /// Runs the jobs.
  let runner: JobRunner
  /// The store (registry, history).
  let store: Store
  /// The data directory, for the saved settings.
  let data: DataDirectory

  /// The job's status and its changes.
  var relay: StateRelay<TestStatus> { job.relay }

  /// Starts a blocker test; its progress goes to `relay`, the report to the history.
  func start(_ request: TestRequest) async throws -> TestStatus {
    let settings = Settings.load(from: data)
    let kind = try request.probeKind(default: ProbeKind(rawValue: settings.probe) ?? .system)
    let timeout = try request.timeoutDuration(default: settings.timeout)
    let registry = try await TestPlan(categories: request.category ?? []).registry(in: store)
    let (through, target) = try Self.through(kind, resolver: request.resolver, settings: settings)
    let run = BlockerTestRun(through: through, timeout: timeout)
    let initial = TestStatus(
      state: .running, probe: kind.rawValue, target: target, total: registry.domains.count, startedAt: Date())
    let (store, relay) = (store, relay)
    try await job.start(on: runner, initial: initial) { [registry] latch in
      let publish = StatusPublisher(initial, to: relay)
      do {
        var report = try await runCancellable(latch) {
          try await run.run(registry, store: store) { event in publish { $0.apply(event) } }
        }
        report = try History(store: store).save(report)
        publish {
          $0.state = .finished
          $0.finishedAt = Date()
          $0.runID = report.id
          $0.percent = report.score.percent
          $0.message = report.score.summary
        }
      } catch is CancellationError {
        publish { $0.cancelled() }
      } catch TestError.cancelled {
        publish { $0.cancelled() }
      } catch {
        publish { $0.failed(error) }
      }
    }
    return relay.currentValue
  }

  /// Cancels the running test; false when none runs.
  func cancel() async -> Bool { await job.cancel() }

  /// What the probe goes through, and its name for people.
  private static func through(
    _ kind: ProbeKind, resolver: String?, settings: Settings
  ) throws(DashboardError) -> (BlockerTestRun.Through, String) {
    switch kind {
    case .dns:
      let text = (resolver ?? "").isEmpty ? settings.resolver : resolver ?? ""
      guard !text.isEmpty else {
        throw .badRequest("The dns probe needs a DNS server: give its address as IP or IP:port.")
      }
      do {
        return (.dns(try Resolver(server: text)), text)
      } catch {
        throw .badRequest("\"\(text)\" is not a DNS server address: \(error.localizedDescription)")
      }
    case .https:
      return (.https, "HTTPS")
    case .system:
      return (.system, "system resolver")
    }
  }
}

extension TestStatus {
  /// Marks the run cancelled: nothing is saved.
  mutating func cancelled() {
    state = .cancelled
    finishedAt = Date()
    message = "Cancelled after \(done) of \(total) domains; nothing was saved."
  }
}
