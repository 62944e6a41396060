import BlockerTest
import Testing

@Suite("The system resolver probe")
struct SystemProbeTests {
  @Test("localhost resolves to loopback: blocked by the sinkhole rules")
  func local() async {
    let verdict = await SystemProbe().probe("localhost")
    #expect(verdict.outcome == .blocked)
    #expect(verdict.reason.hasPrefix("sinkhole"))
  }

  @Test("A cancelled probe returns at once")
  func cancelled() async {
    let verdict = await withTaskGroup(of: Verdict.self) { group in
      group.cancelAll()
      group.addTask { await SystemProbe().probe("localhost") }
      return await group.next()!
    }
    #expect(verdict == Verdict(.inconclusive, "cancelled"))
  }
}
