import Downloads
import Foundation
import Loading
import Locking
import Store
import Updates
import UseCases

/// Updating the active profile as a dashboard job: start it, cancel the run or one source, watch it.
struct UpdateService: Sendable {
  /// The update job (one run at a time; its status relay replays the current status).
  let job: Job<UpdateStatus>
  /// Cancels single sources of the running (or last) run.
  let sources: Locked<SourceCancellation>
  /// Runs the jobs.
  let runner: JobRunner
  /// The store.
  let store: Store
  /// Downloads (tests shorten the timeouts).
  let downloads: DownloadConfiguration

  /// The job's status and its changes.
  var relay: StateRelay<UpdateStatus> { job.relay }

  /// Starts an update of the active profile; its progress goes to `relay`.
  func start(force: Bool) async throws -> UpdateStatus {
    let profile = try store.activeProfile().name
    let initial = UpdateStatus(state: .running, profile: profile, startedAt: Date())
    let (store, configuration, relay) = (store, downloads, relay)
    let cancellation = SourceCancellation()
    let sources = self.sources
    // The run's sources become the ones a Cancel button reaches, as it starts.
    let willStart: @Sendable () -> Void = { sources.withLock { $0 = cancellation } }
    try await job.start(on: runner, initial: initial, willStart: willStart) { latch in
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
        publish { $0.cancelled() }
      } catch {
        publish { $0.failed(error) }
      }
    }
    return relay.currentValue
  }

  /// Cancels the running update; false when none runs.
  func cancel() async -> Bool { await job.cancel() }

  /// Cancels one source of the running update; false once it (or the run) has ended.
  func cancel(source key: String) throws(DashboardError) -> Bool {
    let status = relay.currentValue
    guard status.sources.contains(where: { $0.key == key }) else {
      throw .notFound("The update has no source “\(key)”: it is not in the active profile, or disabled.")
    }
    return status.state == .running && sources.withLock { $0 }.cancel(key)
  }
}

extension UpdateStatus {
  /// Marks the run cancelled: every source keeps its previous copy.
  mutating func cancelled() {
    state = .cancelled
    finishedAt = Date()
    message = "Cancelled: every source keeps its previous copy."
    for index in sources.indices where !sources[index].isFinished {
      sources[index].phase = "cancelled"
      sources[index].detail = "cancelled"
    }
  }
}
