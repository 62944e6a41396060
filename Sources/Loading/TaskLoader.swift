import Locking

/// A `Loadable` that runs an async throwing operation, optionally reporting progress along the way.
///
/// - The operation runs inside `load()`, in a child task of the caller's task (structured concurrency):
///   cancelling the caller cancels the operation.
/// - A second `load()` while a load is running joins it: no second operation starts, and the call
///   returns when the running load settles. A `load()` after `cancel()` (while the cancelled operation is
///   still winding down) waits for it to finish, then starts a fresh load.
/// - `cancel()` publishes `.loading` with `isCancelled: true` at once (keeping the last message and
///   percent), cancels the operation, and the load then ends in `.idle`, whatever the operation returned.
///   A load whose caller is cancelled, or whose operation throws `CancellationError`, also ends in `.idle`.
public final class TaskLoader<Value: Sendable>: Loadable {
  private struct Run {
    let id: UInt64
    var isCancelled = false
    let completion = Latch()
    let cancellation = Latch()
  }

  private enum Phase {
    case idle
    case running(Run)
  }

  private enum Action {
    case run(Run)
    case join(Latch)
    case awaitCancelledRun(Latch)
  }

  private struct State {
    var phase: Phase = .idle
    var nextRunID: UInt64 = 0
  }

  private let operation: @Sendable (ProgressReporter) async throws -> Value
  private let relay: StateRelay<LoadingState<Value>>
  private let storage = Locked(State())

  /// Creates a loader that runs `operation` on each load.
  public convenience init(_ operation: @escaping @Sendable () async throws -> Value) {
    self.init(reporting: { _ in try await operation() })
  }

  /// Creates a loader that runs `operation` on each load, handing it a reporter for its progress.
  public init(reporting operation: @escaping @Sendable (ProgressReporter) async throws -> Value) {
    self.operation = operation
    self.relay = StateRelay(.idle)
  }

  /// A new stream that replays the current state, then yields every change.
  public var state: AsyncStream<LoadingState<Value>> {
    relay.stream
  }

  /// The latest state.
  public var currentState: LoadingState<Value> {
    relay.currentValue
  }

  /// The number of `load()` calls currently joined to the running load (for tests and diagnostics).
  var joinedCallers: Int {
    storage.withLock { state in
      guard case .running(let run) = state.phase else { return 0 }
      return run.completion.waiterCount
    }
  }

  /// Runs the operation (or joins the running one) and returns once the load has settled.
  public func load() async {
    while true {
      let action = storage.withLock { state -> Action in
        switch state.phase {
        case .running(let run) where !run.isCancelled:
          return .join(run.completion)
        case .running(let run):
          return .awaitCancelledRun(run.completion)
        case .idle:
          state.nextRunID += 1
          let run = Run(id: state.nextRunID)
          state.phase = .running(run)
          relay.update(.loading(LoadingProgress()))
          return .run(run)
        }
      }
      switch action {
      case .run(let run):
        await execute(run)
        return
      case .join(let completion):
        await completion.wait()
        return
      case .awaitCancelledRun(let completion):
        await completion.wait()
        if Task.isCancelled { return }
      }
    }
  }

  /// Cancels the running operation; the load then ends in `.idle`. Does nothing when idle.
  public func cancel() {
    let cancellation = storage.withLock { state -> Latch? in
      guard case .running(var run) = state.phase, !run.isCancelled else { return nil }
      run.isCancelled = true
      state.phase = .running(run)
      let progress = relay.currentValue.progress ?? LoadingProgress()
      relay.update(.loading(progress.markingCancelled()))
      return run.cancellation
    }
    cancellation?.signal()
  }

  private func execute(_ run: Run) async {
    let reporter = ProgressReporter { [weak self] progress in
      self?.report(progress, runID: run.id)
    }
    let operation = self.operation
    let result = await run.cancellation.runCancellable { () -> Result<Value, any Error> in
      do {
        return .success(try await operation(reporter))
      } catch {
        return .failure(error)
      }
    }
    let callerCancelled = Task.isCancelled
    storage.withLock { state in
      guard case .running(let current) = state.phase, current.id == run.id else { return }
      state.phase = .idle
      relay.update(Self.settledState(of: result, cancelled: current.isCancelled || callerCancelled))
    }
    run.completion.signal()
  }

  /// The state a finished run settles in: `.idle` when it was cancelled (or threw `CancellationError`).
  private static func settledState(
    of result: Result<Value, any Error>,
    cancelled: Bool
  ) -> LoadingState<Value> {
    switch result {
    case _ where cancelled:
      return .idle
    case .failure(let error) where error is CancellationError:
      return .idle
    case .failure(let error):
      return .failure(LoadingFailure(error))
    case .success(let value):
      return .success(value)
    }
  }

  private func report(_ progress: LoadingProgress, runID: UInt64) {
    storage.withLock { state in
      guard case .running(let run) = state.phase, run.id == runID, !run.isCancelled else { return }
      relay.update(.loading(progress))
    }
  }
}
