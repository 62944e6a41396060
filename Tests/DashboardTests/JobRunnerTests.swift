import TestSupport
import Testing

@testable import Dashboard

@Suite("Job runner")
struct JobRunnerTests {
  @Test("Runs submitted work concurrently and cancels what still runs when it stops")
  func runsAndCancels() async throws {
    let runner = JobRunner()
    let (events, event) = AsyncStream.makeStream(of: String.self)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await runner.run() }
      #expect(runner.submit { event.yield("quick") })
      #expect(
        runner.submit {
          do {
            try await Task.sleep(for: .seconds(3600))
          } catch {
            event.yield("cancelled")
          }
        })
      var iterator = events.makeAsyncIterator()
      #expect(await iterator.next() == "quick")
      group.cancelAll()
      #expect(await iterator.next() == "cancelled")
    }
  }
}
