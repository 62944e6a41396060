import TestSupport
import Testing

@testable import Dashboard

@Suite("Job runner")
struct JobRunnerTests {
  @Test("Runs submitted work concurrently and cancels what still runs when it stops")
  func runsAndCancels() async throws {
    let runner = JobRunner()
    let (events, event) = AsyncStream.makeStream(of: String.self)
    await withThrowingTaskGroup(of: Void.self) { group in
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

  @Test("Jobs handed over when the runner stops still run, cancelled; none is dropped, and later ones are refused")
  func noJobDropped() async throws {
    let runner = JobRunner()
    let (events, event) = AsyncStream.makeStream(of: String.self)
    for index in 0..<3 {
      #expect(runner.submit { event.yield(Task.isCancelled ? "cancelled \(index)" : "ran \(index)") })
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        // Cancelled before it takes the first job: the jobs are still in the stream's buffer.
        withUnsafeCurrentTask { $0?.cancel() }
        try await runner.run()
      }
      try await group.waitForAll()
    }
    event.finish()
    var seen: [String] = []
    for await text in events { seen.append(text) }
    #expect(seen.sorted() == ["cancelled 0", "cancelled 1", "cancelled 2"])
    #expect(!runner.submit { event.yield("late") })
  }
}
