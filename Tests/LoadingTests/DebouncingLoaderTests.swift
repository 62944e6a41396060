import TestSupport
import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct DebouncingLoaderTests {
  @Test func rapidLoadsCoalesceIntoOneBaseLoad() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(1), .success(2)])
    let loader = DebouncingLoader(base, interval: .seconds(1), clock: clock)
    let calls = (0..<5).map { _ in Task { await loader.load() } }
    #expect(await eventually { loader.waitingCallers == 5 })
    #expect(await clock.waitForSleepers(1))
    #expect(base.loads == 0)
    clock.advance(by: .seconds(1))
    for call in calls { await call.cancellableValue }
    #expect(base.loads == 1)
    #expect(loader.currentState == .success(1))
    #expect(loader.waitingCallers == 0)
  }

  @Test func loadsSpacedBeyondTheIntervalEachLoadTheBase() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(1), .success(2), .success(3)])
    let loader = DebouncingLoader(base, interval: .seconds(1), clock: clock)
    for round in 1...3 {
      let call = Task { await loader.load() }
      #expect(await clock.waitForSleepers(1))
      clock.advance(by: .seconds(2))
      await call.cancellableValue
      #expect(base.loads == round)
      #expect(loader.currentState == .success(round))
    }
  }

  @Test func eachCallPushesTheLoadBackByTheInterval() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(1)])
    let loader = DebouncingLoader(base, interval: .seconds(1), clock: clock)
    let first = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .milliseconds(500))
    let second = Task { await loader.load() }
    #expect(await eventually { loader.waitingCallers == 2 })

    clock.advance(by: .milliseconds(500))
    #expect(await clock.waitForSleepers(1))
    #expect(base.loads == 0)
    clock.advance(by: .milliseconds(499))
    #expect(clock.sleepers() == 1)
    #expect(base.loads == 0)

    clock.advance(by: .milliseconds(1))
    await first.cancellableValue
    await second.cancellableValue
    #expect(base.loads == 1)
  }

  @Test func forwardsTheBasesStates() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(7)])
    let loader = DebouncingLoader(base, interval: .zero, clock: clock)
    let states = loader.state
    await loader.load()
    #expect(
      await collect(states) { $0.isSettledWithResult } == [
        .idle,
        .loading(LoadingProgress(percent: 10)),
        .loading(LoadingProgress(percent: 50)),
        .success(7),
      ]
    )
  }

  @Test func observesTheBaseOnceBeforeTheFirstLoad() async {
    let base = FakeLoader(outcomes: [.success(1), .success(2), .success(3)])
    let loader = DebouncingLoader(base, interval: .zero, clock: ManualClock())
    #expect(base.stateAccesses == 0)
    await loader.load()
    await loader.load()
    await loader.load()
    #expect(base.stateAccessesAtFirstLoad == 1)
    #expect(base.stateAccesses == 1)
    #expect(base.loads == 3)
    #expect(loader.currentState == .success(3))
  }

  @Test func cancelDropsThePendingLoadAndIsForwarded() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(1)])
    let loader = DebouncingLoader(base, interval: .seconds(1), clock: clock)
    let calls = (0..<2).map { _ in Task { await loader.load() } }
    #expect(await eventually { loader.waitingCallers == 2 })
    #expect(await clock.waitForSleepers(1))
    loader.cancel()
    for call in calls { await call.cancellableValue }
    #expect(base.cancels == 1)
    #expect(clock.sleepers() == 0)
    clock.advance(by: .seconds(10))
    #expect(base.loads == 0)
    #expect(loader.currentState == .idle)
  }

  @Test func cancelStopsALoadingBase() async {
    let clock = ManualClock()
    let base = TaskLoader<Int> {
      try await clock.sleep(for: .seconds(10))
      return 1
    }
    let loader = DebouncingLoader(base, interval: .seconds(1), clock: clock)
    let call = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(1))
    #expect(await eventually { base.currentState.isLoading })
    #expect(await clock.waitForSleepers(1))
    loader.cancel()
    await call.cancellableValue
    #expect(base.currentState == .idle)
    #expect(loader.currentState == .idle)
  }

  @Test func cancellingTheWaitingCallerDropsThePendingLoad() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(1)])
    let loader = DebouncingLoader(base, interval: .seconds(1), clock: clock)
    let call = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    call.cancel()
    await call.cancellableValue
    clock.advance(by: .seconds(10))
    #expect(base.loads == 0)
    #expect(base.cancels == 0)
    let next = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(1))
    await next.cancellableValue
    #expect(base.loads == 1)
  }

  @Test func aNegativeIntervalCountsAsZero() {
    let loader = DebouncingLoader(
      FakeLoader(outcomes: [.success(1)]), interval: .seconds(-1), clock: ManualClock())
    #expect(loader.interval == .zero)
  }

  @Test func deallocatingTheLoaderStopsObservingTheBase() async {
    let base = FakeLoader(outcomes: [.success(1)])
    var loader: DebouncingLoader<FakeLoader>? = DebouncingLoader(base, interval: .zero, clock: ManualClock())
    await loader?.load()
    #expect(base.relay.observerCount == 1)
    weak let weakLoader = loader
    loader = nil
    #expect(weakLoader == nil)
    #expect(await eventually { base.relay.observerCount == 0 })
  }

  @Test func deallocatingTheLoaderFinishesItsStreams() async {
    var loader: DebouncingLoader<FakeLoader>? = DebouncingLoader(
      FakeLoader(outcomes: [.success(1)]),
      interval: .zero,
      clock: ManualClock()
    )
    let states = loader?.state
    await loader?.load()
    loader = nil
    let seen = await collect(states ?? AsyncStream { $0.finish() })
    #expect(seen.last == .success(1))
  }
}
