import ServiceLifecycle

/// Runs the dashboard's background jobs (updates, tests) in one task group that lives as long as the server.
///
/// A ServiceLifecycle service: on graceful shutdown (SIGINT, SIGTERM) it stops taking jobs and cancels
/// the running ones, which clean up as on Ctrl-C (an update leaves the store as it was).
final class JobRunner: Service, Sendable {
  typealias Work = @Sendable () async -> Void

  private let stream: AsyncStream<Work>
  private let continuation: AsyncStream<Work>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Work.self)
  }

  /// Hands a job to the group; false once the runner has stopped.
  func submit(_ work: @escaping Work) -> Bool {
    if case .enqueued = continuation.yield(work) { return true }
    return false
  }

  func run() async throws {
    await withDiscardingTaskGroup { group in
      for await work in stream.cancelOnGracefulShutdown() {
        group.addTask { await work() }
      }
      continuation.finish()
      group.cancelAll()
    }
  }
}
