import BlockerTest
import Locking
import TestSupport
import Testing

@Suite("The test runner")
struct TestRunnerTests {
  @Test("Outcomes come back in registry order with per-category scores; events count progress")
  func scores() async throws {
    let probe = TableProbe([
      "ads.website": Verdict(.blocked, "NXDOMAIN"), "banner.website": Verdict(.blocked, "sinkhole 0.0.0.0"),
      "stats.website": Verdict(.reachable, "192.0.2.1"), "metrics.website": Verdict(.inconclusive, "SERVFAIL"),
      "example.com": Verdict(.reachable, "93.184.215.14"),
    ])
    let events = Locked<[TestEvent]>([])
    let report = try await TestRunner(probe: probe, clock: ContinuousClock()).run(smallRegistry) { event in
      events.withLock { $0.append(event) }
    }
    #expect(report.results.map(\.hostname) == ["ads.website", "banner.website", "stats.website", "metrics.website"])
    #expect(report.controls.map(\.hostname) == ["example.com"])
    #expect(report.score == Score(blocked: 2, reachable: 1, inconclusive: 1))
    #expect(report.categories.map(\.name) == ["Ads", "Analytics"])
    #expect(report.categories[0].score.percent == 100)
    #expect(report.categories[1].score == Score(blocked: 0, reachable: 1, inconclusive: 1))
    #expect(report.providers.first { $0.name == "A" }?.score == Score(blocked: 1, reachable: 1))
    let recorded = events.withLock { $0 }
    #expect(recorded.first == .started(total: 4))
    #expect(recorded.count == 5)
    if case .finished(_, let done, let total, let blocked) = recorded.last {
      #expect(done == 4 && total == 4 && blocked == 2)
    } else {
      Issue.record("the last event is not a finished domain")
    }
  }

  @Test("No control domain answers: the run stops with a clear error, within one timeout")
  func controlsFail() async throws {
    let clock = ManualClock()
    let runner = TestRunner(probe: TableProbe([:]), options: .init(timeout: .seconds(2)), clock: clock)
    async let outcome: Result<TestReport, TestError> = {
      do throws(TestError) { return .success(try await runner.run(smallRegistry)) } catch { return .failure(error) }
    }()
    // The control probe's timeout and the run's bound are asleep on the clock.
    #expect(await clock.waitForSleepers(2))
    clock.advance(by: .seconds(2))
    let result = await outcome
    guard case .failure(.noWorkingResolver(let target, let reasons)) = result else {
      Issue.record("expected noWorkingResolver, got \(result)")
      return
    }
    #expect(target == "table")
    #expect(reasons == ["timeout after 2 s"])
  }

  @Test("Every control blocked: no score, a named error")
  func controlsBlocked() async throws {
    let probe = TableProbe(["example.com": Verdict(.blocked, "sinkhole 0.0.0.0")])
    await #expect(throws: TestError.controlsBlocked(target: "table", reasons: ["example.com: sinkhole 0.0.0.0"])) {
      try await TestRunner(probe: probe, clock: ContinuousClock()).run(smallRegistry)
    }
  }

  @Test("A sliding window: a slow domain holds one slot while the others finish; the bound cuts it off")
  func slidingWindowAndBound() async throws {
    var answers = ["example.com": Verdict(.reachable, "93.184.215.14")]
    for name in ["ads.website", "banner.website", "stats.website"] { answers[name] = Verdict(.blocked, "NXDOMAIN") }
    let probe = TableProbe(answers)  // metrics.website never answers
    let clock = ManualClock()
    let runner = TestRunner(
      probe: probe, options: .init(timeout: .seconds(10), concurrency: 2, maximumDuration: .seconds(5)), clock: clock)
    async let report = runner.run(smallRegistry)
    // Wait until every domain was started and only the stuck probe's timeout and the bound are asleep.
    #expect(await eventually(within: 60) { probe.started.withLock { $0.count } == 5 && clock.sleepers() == 2 })
    clock.advance(by: .seconds(5))
    let finished = try await report
    #expect(finished.score == Score(blocked: 3, reachable: 0, inconclusive: 1))
    let stuck = try #require(finished.results.first { $0.hostname == "metrics.website" })
    #expect(stuck.reason == "not finished within the run's bound of 5 s")
    #expect(finished.warnings.contains { $0.contains("not finished within the run's bound") })
  }

  @Test("Controls answer but no tested domain does: everything inconclusive after one timeout, no rating")
  func allInconclusive() async throws {
    let probe = TableProbe(["example.com": Verdict(.reachable, "93.184.215.14")])
    let clock = ManualClock()
    let runner = TestRunner(probe: probe, options: .init(timeout: .seconds(2)), clock: clock)
    async let report = runner.run(smallRegistry)
    // The four stuck probes' timeouts and the run's bound.
    #expect(await eventually(within: 60) { probe.started.withLock { $0.count } == 5 && clock.sleepers() == 5 })
    clock.advance(by: .seconds(2))
    let finished = try await report
    #expect(finished.score == Score(blocked: 0, reachable: 0, inconclusive: 4))
    #expect(finished.score.rating == .unknown)
    #expect(finished.results.allSatisfy { $0.reason == "timeout after 2 s" })
    #expect(finished.milliseconds == 2000)
  }

  @Test("An empty registry is an error")
  func empty() async {
    await #expect(throws: TestError.emptyRegistry) {
      try await TestRunner(probe: TableProbe([:]), clock: ContinuousClock()).run(Registry([]))
    }
  }
}
