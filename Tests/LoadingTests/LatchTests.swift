import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct LatchTests {
  @Test func signalResumesEveryWaiter() async {
    let latch = Latch()
    let waiters = (0..<3).map { _ in Task { await latch.wait() } }
    #expect(await eventually { latch.waiterCount == 3 })
    #expect(!latch.isSignalled)
    latch.signal()
    for waiter in waiters { await waiter.cancellableValue }
    #expect(latch.isSignalled)
    #expect(latch.waiterCount == 0)
  }

  @Test func waitingOnASignalledLatchReturnsAtOnce() async {
    let latch = Latch()
    latch.signal()
    latch.signal()
    await latch.wait()
    #expect(latch.isSignalled)
  }

  @Test func aCancelledWaiterStopsWaitingAndIsRemoved() async {
    let latch = Latch()
    let waiter = Task { await latch.wait() }
    #expect(await eventually { latch.waiterCount == 1 })
    waiter.cancel()
    #expect(await eventually { latch.waiterCount == 0 })
    #expect(!latch.isSignalled)
    // Releases a waiter that ignored its cancellation, so a broken latch fails here instead of hanging.
    latch.signal()
    await waiter.cancellableValue
  }

  @Test func waitingInACancelledTaskReturnsAtOnce() async {
    let latch = Latch()
    let gate = Gate()
    let waiter = Task {
      await gate.wait()
      await latch.wait()
    }
    waiter.cancel()
    gate.open()
    await waiter.cancellableValue
    #expect(latch.waiterCount == 0)
  }
}
