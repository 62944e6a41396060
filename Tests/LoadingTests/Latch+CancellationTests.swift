import TestSupport
import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct LatchCancellationTests {
  @Test func returnsTheOperationsResultWhenNotSignalled() async {
    let latch = Latch()
    let result = await latch.runCancellable { 42 }
    #expect(result == 42)
    #expect(!latch.isSignalled)
  }

  @Test func signallingTheLatchCancelsTheOperation() async {
    let clock = ManualClock()
    let latch = Latch()
    let run = Task {
      await latch.runCancellable { () -> String in
        do {
          try await clock.sleep(for: .seconds(60))
          return "finished"
        } catch {
          return Task.isCancelled ? "cancelled" : "failed"
        }
      }
    }
    #expect(await clock.waitForSleepers(1))
    latch.signal()
    #expect(await run.cancellableValue == "cancelled")
    #expect(clock.sleepers() == 0)
  }

  @Test func anAlreadySignalledLatchCancelsTheOperationAtOnce() async {
    let clock = ManualClock()
    let latch = Latch()
    latch.signal()
    let slept = await latch.runCancellable { (try? await clock.sleep(for: .seconds(1))) != nil }
    #expect(!slept)
  }

  @Test func cancellingTheCallerCancelsTheOperation() async {
    let clock = ManualClock()
    let latch = Latch()
    let run = Task {
      await latch.runCancellable { (try? await clock.sleep(for: .seconds(60))) != nil }
    }
    #expect(await clock.waitForSleepers(1))
    run.cancel()
    #expect(await run.cancellableValue == false)
    #expect(clock.sleepers() == 0)
    #expect(latch.waiterCount == 0)
  }
}
