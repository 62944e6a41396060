import Foundation
import Loading
import Locking

/// What a job's status says about where it is; the relay carries it to every page that watches.
protocol JobStatus: Sendable, Encodable {
  /// The status before any run.
  static var idle: Self { get }
  /// Where the job is.
  var state: JobPhase { get set }
  /// When it ended.
  var finishedAt: Date? { get set }
  /// The line that says how it went.
  var message: String? { get set }
}

extension JobStatus {
  /// Marks the job failed with `error`'s description.
  mutating func failed(_ error: any Error) {
    state = .failed
    finishedAt = Date()
    message = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
  }
}

/// The phase of a job: what `state` means in every job status.
enum JobPhase: String, Sendable, Codable, Hashable {
  /// Never run since the server started.
  case idle
  /// Running now.
  case running
  /// Ended normally.
  case finished
  /// Cancelled by a user (or by the server shutting down).
  case cancelled
  /// Could not run or failed.
  case failed
}

/// One kind of job (an update, a test) that runs at most once at a time and can be watched and cancelled.
///
/// The job's status lives in a replaying `StateRelay`: a page that opens (or reconnects) in the middle
/// of a run gets the current status first, then every change.
actor Job<Status: JobStatus> {
  /// Where the job is.
  enum State {
    /// Nothing runs.
    case idle
    /// Run `id` runs; signalling the latch cancels it.
    case running(id: Int, cancel: Latch)
  }

  /// The job's name in messages (`update`, `blocker test`).
  nonisolated let name: String
  /// The current status and its changes.
  nonisolated let relay: StateRelay<Status>
  private(set) var state: State = .idle
  private var runs = 0

  init(name: String) {
    self.name = name
    relay = StateRelay(Status.idle, bufferSize: 256)
  }

  /// Whether a run is in progress.
  var isRunning: Bool {
    if case .running = state { return true }
    return false
  }

  /// Publishes `initial` and starts `work` on the runner; refuses while a run is in progress.
  ///
  /// `willStart` runs once the run is sure to start (nothing else runs), before `work` is handed over;
  /// `work` gets the cancel latch; it must publish its status through `relay` and return when done.
  @discardableResult
  func start(
    on runner: JobRunner, initial: Status, willStart: @Sendable () -> Void = {},
    _ work: @escaping @Sendable (Latch) async -> Void
  ) throws(DashboardError) -> Int {
    if case .running = state { throw .alreadyRunning(job: name) }
    willStart()
    relay.update(initial)
    runs += 1
    let id = runs
    let latch = Latch()
    state = .running(id: id, cancel: latch)
    let accepted = runner.submit { [self] in
      await work(latch)
      await self.ended(id)
    }
    if !accepted {
      state = .idle
      throw .badRequest("The dashboard is shutting down; the \(name) was not started.")
    }
    return id
  }

  /// Cancels the running job; false when none runs.
  @discardableResult
  func cancel() -> Bool {
    guard case .running(_, let latch) = state else { return false }
    latch.signal()
    return true
  }

  private func ended(_ id: Int) {
    if case .running(let running, _) = state, running == id {
      state = .idle
    }
  }
}

/// Publishes a running job's status: each change is applied under a lock (events arrive from several
/// tasks at once) and the result goes to the job's relay.
final class StatusPublisher<Status: Sendable>: Sendable {
  private let status: Locked<Status>
  private let relay: StateRelay<Status>

  init(_ initial: Status, to relay: StateRelay<Status>) {
    status = Locked(initial)
    self.relay = relay
  }

  /// Changes the status and publishes it.
  func callAsFunction(_ change: (inout Status) -> Void) {
    relay.update(
      status.withLock { status in
        change(&status)
        return status
      })
  }
}
