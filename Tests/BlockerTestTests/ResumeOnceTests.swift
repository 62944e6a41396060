import Testing

@testable import BlockerTest

@Suite("Resuming a continuation once")
struct ResumeOnceTests {
  @Test("The first value wins, whether it comes before or after the continuation is stored")
  func firstWins() async {
    let early = ResumeOnce<Int>()
    early.resume(1)
    early.resume(2)
    #expect(await withCheckedContinuation { early.set($0) } == 1)
    let late = ResumeOnce<Int>()
    let value = await withCheckedContinuation { continuation in
      late.set(continuation)
      late.resume(3)
      late.resume(4)
    }
    #expect(value == 3)
  }
}
