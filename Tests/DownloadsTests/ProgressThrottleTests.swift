import TestSupport
import Testing

@testable import Downloads

@Suite("Progress throttling")
struct ProgressThrottleTests {
  @Test("At most one update per interval, measured on the clock; the final count always goes out")
  func interval() {
    let clock = ManualClock()
    var throttle = ProgressThrottle(clock: clock, interval: .milliseconds(100))
    let r1s = throttle.shouldSend(1)
    #expect(r1s)
    let r2s = throttle.shouldSend(2)
    #expect(!r2s)
    clock.advance(by: .milliseconds(99))
    let r3s = throttle.shouldSend(3)
    #expect(!r3s)
    clock.advance(by: .milliseconds(1))
    let r4s = throttle.shouldSend(4)
    #expect(r4s)
    let r5n = throttle.needsFinal(5)
    #expect(r5n)
    let r5again = throttle.needsFinal(5)
    #expect(!r5again)
  }

  @Test("The final count is not repeated when it was the last one sent")
  func noDuplicateFinal() {
    var throttle = ProgressThrottle(clock: ManualClock(), interval: .milliseconds(100))
    let r10s = throttle.shouldSend(10)
    #expect(r10s)
    let r10n = throttle.needsFinal(10)
    #expect(!r10n)
  }
}
