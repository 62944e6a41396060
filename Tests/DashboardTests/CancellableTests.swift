import Loading
import Testing

@testable import Dashboard

@Suite("Cancellable work")
struct CancellableTests {
  @Test("The work's result when it ends first; CancellationError after onCancel when the latch is signalled")
  func race() async throws {
    let latch = Latch()
    #expect(try await runCancellable(latch) { 42 } == 42)
    let (called, call) = AsyncStream.makeStream(of: Void.self)
    await #expect(throws: CancellationError.self) {
      try await runCancellable(latch, onCancel: { call.yield() }) {
        latch.signal()
        try await Task.sleep(for: .seconds(3600))
        return 0
      }
    }
    var iterator = called.makeAsyncIterator()
    #expect(await iterator.next() != nil)
  }
}
