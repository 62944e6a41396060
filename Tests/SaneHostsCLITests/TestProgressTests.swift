import Testing

@testable import SaneHostsCLI

@Suite("Blocker test progress line")
struct TestProgressTests {
  @Test("done/total with aligned digits, blocked so far, the current domain; cut to the width")
  func line() {
    #expect(
      TestProgress.line(done: 7, total: 128, blocked: 5, current: "ads.example", width: 80)
        == "[  7/128] 5 blocked  ads.example")
    let long = TestProgress.line(
      done: 100, total: 128, blocked: 90, current: String(repeating: "x", count: 200), width: 40)
    #expect(long.count == 39)
    #expect(long.hasPrefix("[100/128] 90 blocked  xxx"))
  }

  @Test("Not live: nothing is drawn and finishing writes nothing")
  func silent() {
    let progress = TestProgress(live: false, width: 80)
    progress.finish()
  }
}
