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

  /// Runs each job handed over until graceful shutdown or cancellation. Then the stream is finished, so
  /// `submit` refuses new jobs, but every job already handed over still starts (cancelled at once) and
  /// ends as cancelled: none is dropped while its caller believes it runs. (Ending the loop on
  /// cancellation instead, as `cancelOnGracefulShutdown()` does, dropped jobs still in the buffer; the
  /// ThreadSanitizer run, slow enough to hit that window, found it.)
  func run() async throws {
    await withDiscardingTaskGroup { group in
      await withGracefulShutdownHandler {
        // The stream's own iterator finishes the stream when the task is cancelled, and a finished
        // stream still yields what it holds before it ends.
        for await work in stream {
          group.addTask { await work() }
        }
      } onGracefulShutdown: {
        self.continuation.finish()
      }
      group.cancelAll()
    }
  }
}
