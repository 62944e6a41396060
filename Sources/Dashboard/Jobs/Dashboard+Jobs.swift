import AsyncHTTPClient
import BlockerTest
import DNS
import Downloads
import Foundation
import Loading
import Locking
import Store
import Updates
import UseCases

extension Dashboard {
  /// Starts an update of the active profile; its progress goes to `updates.relay`.
  func startUpdate(force: Bool) async throws -> UpdateStatus {
    let profile = try store.activeProfile().name
    let initial = UpdateStatus(state: .running, profile: profile, startedAt: Date())
    let store = self.store
    let configuration = downloads
    let relay = updates.relay
    let cancellation = SourceCancellation()
    let sources = updateSources
    // The run's sources become the ones a Cancel button reaches, as it starts.
    let willStart: @Sendable () -> Void = { sources.withLock { $0 = cancellation } }
    try await updates.start(on: runner, initial: initial, willStart: willStart) { latch in
      let publish = StatusPublisher(initial, to: relay)
      do {
        let run = ProfileUpdate(profile: profile, options: Updater.Options(force: force), downloads: configuration)
        let outcome = try await run.run(
          in: store, cancellation: cancellation, events: { event in publish { $0.apply(event) } },
          around: { cancelDownloads, update in
            try await runCancellable(latch, onCancel: cancelDownloads) { try await update() }
          })
        publish { $0.finish(outcome.summary, health: outcome.health) }
      } catch is CancellationError {
        publish {
          $0.state = .cancelled
          $0.finishedAt = Date()
          $0.message = "Cancelled: every source keeps its previous copy."
          for index in $0.sources.indices where !$0.sources[index].isFinished {
            $0.sources[index].phase = "cancelled"
            $0.sources[index].detail = "cancelled"
          }
        }
      } catch {
        publish { $0.failed(error) }
      }
    }
    return relay.currentValue
  }

  /// Starts a blocker test; its progress goes to `tests.relay`, the report to the history.
  func startTest(_ request: TestRequest) async throws -> TestStatus {
    let settings = Settings.load(from: configuration.data)
    let kind = try request.probeKind(default: ProbeKind(rawValue: settings.probe) ?? .system)
    let timeout = try request.timeoutDuration(default: settings.timeout)
    let registry = try await TestPlan(categories: request.category ?? []).registry(in: store)
    var through = BlockerTestRun.Through.system
    var target = "system resolver"
    if kind == .dns {
      let text = (request.resolver ?? "").isEmpty ? settings.resolver : request.resolver ?? ""
      guard !text.isEmpty else {
        throw DashboardError.badRequest("The dns probe needs a DNS server: give its address as IP or IP:port.")
      }
      do {
        through = .dns(try Resolver(server: text))
      } catch {
        throw DashboardError.badRequest("\"\(text)\" is not a DNS server address: \(error.localizedDescription)")
      }
      target = text
    } else if kind == .https {
      (through, target) = (.https, "HTTPS")
    }
    let run = BlockerTestRun(through: through, timeout: timeout)
    let initial = TestStatus(
      state: .running, probe: kind.rawValue, target: target, total: registry.domains.count, startedAt: Date())
    let store = self.store
    let relay = tests.relay
    try await tests.start(on: runner, initial: initial) { [registry] latch in
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
}

extension TestStatus {
  /// Marks the run cancelled: nothing is saved.
  mutating func cancelled() {
    state = .cancelled
    finishedAt = Date()
    message = "Cancelled after \(done) of \(total) domains; nothing was saved."
  }
}
