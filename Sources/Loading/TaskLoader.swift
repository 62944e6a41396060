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
public final class TaskLoader<Value: Sendable>: Loadable, RelayPublishing {
  private let operation: @Sendable (ProgressReporter) async throws -> Value
  private let flight = SingleFlight<Value>(initial: .idle)

  /// Creates a loader that runs `operation` on each load.
  public convenience init(_ operation: @escaping @Sendable () async throws -> Value) {
    self.init(reporting: { _ in try await operation() })
  }

  /// Creates a loader that runs `operation` on each load, handing it a reporter for its progress.
  public init(reporting operation: @escaping @Sendable (ProgressReporter) async throws -> Value) {
    self.operation = operation
  }

  var relay: StateRelay<LoadingState<Value>> { flight.relay }

  /// The number of `load()` calls currently joined to the running load (for tests and diagnostics).
  var joinedCallers: Int { flight.joinedCallers }

  /// Runs the operation (or joins the running one) and returns once the load has settled.
  public func load() async {
    await flight.load { run in await execute(run) }
  }

  /// Cancels the running operation; the load then ends in `.idle`. Does nothing when idle.
  public func cancel() {
    flight.cancel()
  }

  private func execute(_ run: SingleFlight<Value>.Run) async {
    let flight = self.flight
    let reporter = ProgressReporter { progress in
      flight.withCurrent(of: run) { current in
        guard let current, !current.isCancelled else { return }
        flight.relay.update(.loading(progress))
      }
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
    flight.settle(run) { cancelled in Self.settledState(of: result, cancelled: cancelled || callerCancelled) }
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
}
