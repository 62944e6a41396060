import BlockerTest
import Locking
import Testing

@testable import SaneHostsCLI

@Suite("Blocker test progress line")
struct TestProgressTests {
  @Test("done/total with aligned digits, blocked so far, the current domain; cut to the width")
  func line() {
    #expect(
      TestProgress.line(done: 7, total: 128, blocked: 5, current: "ads.website", width: 80)
        == "[  7/128] 5 blocked  ads.website")
    let long = TestProgress.line(
      done: 100, total: 128, blocked: 90, current: String(repeating: "x", count: 200), width: 40)
    #expect(long.count == 39)
    #expect(long.hasPrefix("[100/128] 90 blocked  xxx"))
  }

  @Test("Not live: nothing is written; live: each finished domain is drawn over the line, which is cleared at the end")
  func drawing() {
    let domain = TestDomain(hostname: "ads.website", category: "Ads", provider: "A")
    let event = TestEvent.finished(
      DomainResult(domain: domain, verdict: Verdict(.blocked, "NXDOMAIN"), milliseconds: 1), done: 1, total: 1,
      blocked: 1)
    let written = Locked<[String]>([])
    let silent = TestProgress(live: false, width: 80) { text in written.withLock { $0.append(text) } }
    silent.handle(event)
    silent.finish()
    #expect(written.withLock { $0 }.isEmpty)
    let live = TestProgress(live: true, width: 80) { text in written.withLock { $0.append(text) } }
    live.handle(event)
    live.finish()
    #expect(written.withLock { $0 } == ["\r\u{1B}[2K[1/1] 1 blocked  ads.website", "\r\u{1B}[2K"])
  }
}
