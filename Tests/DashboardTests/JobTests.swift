import Loading
import TestSupport
import Testing

@testable import Dashboard

@Suite("Job: one run at a time, watched through a replaying relay, cancellable")
struct JobTests {
  @Test("A second start while running is refused; cancel reaches the work; the job is idle again after")
  func lifecycle() async throws {
    let runner = JobRunner()
    let job = Job<TestStatus>(name: "blocker test")
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await runner.run() }
      let (finished, finish) = AsyncStream.makeStream(of: Bool.self)
      try await job.start(on: runner, initial: TestStatus(state: .running)) { latch in
        await latch.wait()
        finish.yield(latch.isSignalled)
        job.relay.update(TestStatus(state: .cancelled))
      }
      #expect(await job.isRunning)
      #expect(job.relay.currentValue.state == .running)
      await #expect(throws: DashboardError.alreadyRunning(job: "blocker test")) {
        try await job.start(on: runner, initial: TestStatus()) { _ in }
      }
      #expect(await job.cancel())
      var iterator = finished.makeAsyncIterator()
      #expect(await iterator.next() == true)
      #expect(await eventually(within: 30) { await !job.isRunning })
      #expect(await job.cancel() == false)
      #expect(job.relay.currentValue.state == .cancelled)
      group.cancelAll()
    }
  }

  @Test("Once the runner has stopped, a start is refused with a message")
  func stoppedRunner() async throws {
    let runner = JobRunner()
    await withTaskGroup(of: Void.self) { group in
      group.addTask { try? await runner.run() }
      group.cancelAll()
    }
    #expect(!runner.submit {})
    let job = Job<UpdateStatus>(name: "update")
    await #expect(throws: DashboardError.self) { try await job.start(on: runner, initial: UpdateStatus()) { _ in } }
    #expect(await !job.isRunning)
  }

  @Test("The publisher applies changes from many tasks without losing one, and the relay ends with the total")
  func publisher() async {
    let relay = StateRelay(TestStatus())
    let publish = StatusPublisher(TestStatus(state: .running), to: relay)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<250 { publish { $0.done += 1 } }
        }
      }
    }
    #expect(relay.currentValue.done == 2000)
    #expect(relay.currentValue.state == .running)
  }
}
