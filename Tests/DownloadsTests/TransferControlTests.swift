import Testing

@testable import Downloads

@Suite("Transfer control")
struct TransferControlTests {
  @Test("The first cancel reason is kept; cancelling cancels the task")
  func firstReasonWins() async {
    let control = TransferControl()
    let started = AsyncStream<Void>.makeStream()
    control.start {
      started.continuation.yield()
      while !Task.isCancelled { await Task.yield() }
    }
    for await _ in started.stream { break }
    control.cancel(.superseded)
    control.cancel(.requested)
    #expect(control.cancelReason == .superseded)
  }

  @Test("A transfer cancelled before it starts never runs; a finished one ignores cancel")
  func lifecycle() async {
    let early = TransferControl()
    early.cancel(.consumerGone)
    early.start { Issue.record("must not run") }
    #expect(early.cancelReason == .consumerGone)

    let done = TransferControl()
    done.start {}
    done.finish()
    done.cancel(.requested)
    #expect(done.cancelReason == nil)
  }
}
