import TestSupport
import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct RetryingLoaderTests {
  private let offline = LoadingFailure(FakeError.offline)
  private let timedOut = LoadingFailure(FakeError.timedOut)

  @Test func succeedsWithoutRetryingWhenTheFirstAttemptWorks() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.success(1)])
    let loader = RetryingLoader(base, maximumAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    let states = loader.state
    await loader.load()
    #expect(base.loads == 1)
    #expect(clock.sleepers() == 0)
    #expect(
      await collect(states) { $0.isSettledWithResult } == [
        .idle,
        .loading(LoadingProgress()),
        .loading(LoadingProgress(percent: 10)),
        .loading(LoadingProgress(percent: 50)),
        .success(1),
      ]
    )
  }

  @Test func aFailureShouldRetryRefusesIsPublishedAtOnceWithoutAnotherAttempt() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(timedOut), .failure(offline), .success(3)])
    let loader = RetryingLoader(
      base, maximumAttempts: 3, backoff: .constant(.seconds(1)), clock: clock,
      shouldRetry: { ($0 as? FakeError) == .timedOut })
    let states = loader.state
    let load = Task { await loader.load() }
    // A timeout is retried…
    #expect(await clock.waitForSleepers(1))
    #expect(loader.currentState == .loading(.retrying(attempt: 2, of: 3)))
    clock.advance(by: .seconds(1))
    // …going offline is not: it is the result, after two attempts of three.
    await load.cancellableValue
    #expect(base.loads == 2)
    #expect(clock.sleepers() == 0)
    #expect(loader.currentState.error as? FakeError == .offline)
    let seen = await collect(states) { $0.isSettledWithResult }
    #expect(seen.filter { $0.progress?.isRetrying == true } == [.loading(.retrying(attempt: 2, of: 3))])
  }

  @Test func retriesAfterTheBackoffAndForwardsEveryStateTheBaseEmitsSynchronously() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(offline), .failure(timedOut), .success(3)])
    let loader = RetryingLoader(base, maximumAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    let states = loader.state
    let load = Task { await loader.load() }

    #expect(await clock.waitForSleepers(1))
    #expect(base.loads == 1)
    #expect(loader.currentState == .loading(.retrying(attempt: 2, of: 3)))
    #expect(loader.currentState.progress?.message == "Retrying… (attempt 2 of 3)")
    clock.advance(by: .seconds(1))

    #expect(await clock.waitForSleepers(1))
    #expect(base.loads == 2)
    #expect(loader.currentState == .loading(.retrying(attempt: 3, of: 3)))
    clock.advance(by: .seconds(1))

    await load.cancellableValue
    #expect(base.loads == 3)
    #expect(loader.currentState == .success(3))
    #expect(
      await collect(states) { $0.isSettledWithResult } == [
        .idle,
        .loading(LoadingProgress()),
        .loading(LoadingProgress(percent: 10)),
        .loading(LoadingProgress(percent: 50)),
        .loading(.retrying(attempt: 2, of: 3)),
        .loading(LoadingProgress(percent: 10)),
        .loading(LoadingProgress(percent: 50)),
        .loading(.retrying(attempt: 3, of: 3)),
        .loading(LoadingProgress(percent: 10)),
        .loading(LoadingProgress(percent: 50)),
        .success(3),
      ]
    )
  }

  @Test func publishesTheLastFailureOnceAttemptsRunOut() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(offline), .failure(timedOut)])
    let loader = RetryingLoader(base, maximumAttempts: 2, backoff: .constant(.seconds(1)), clock: clock)
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .seconds(1))
    await load.cancellableValue
    #expect(base.loads == 2)
    #expect(loader.currentState == .failure(timedOut))
    #expect(clock.sleepers() == 0)
  }

  @Test func waitsTheBackoffDelayOnTheInjectedClock() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(offline)])
    let loader = RetryingLoader(
      base,
      maximumAttempts: 3,
      backoff: .exponential(initial: .seconds(1), multiplier: 2),
      clock: clock
    )
    let load = Task { await loader.load() }

    #expect(await clock.waitForSleepers(1))
    clock.advance(by: .milliseconds(999))
    #expect(clock.sleepers() == 1)
    #expect(base.loads == 1)
    clock.advance(by: .milliseconds(1))

    #expect(await clock.waitForSleepers(1))
    #expect(base.loads == 2)
    clock.advance(by: .milliseconds(1999))
    #expect(clock.sleepers() == 1)
    #expect(base.loads == 2)
    clock.advance(by: .milliseconds(1))

    await load.cancellableValue
    #expect(base.loads == 3)
    #expect(loader.currentState == .failure(offline))
  }

  @Test func observesTheBaseOnceBeforeTheFirstLoad() async {
    let base = FakeLoader(outcomes: [.success(1), .success(2), .success(3)])
    let loader = RetryingLoader(base, clock: ManualClock())
    #expect(base.stateAccesses == 0)
    await loader.load()
    await loader.load()
    await loader.load()
    #expect(base.stateAccessesAtFirstLoad == 1)
    #expect(base.stateAccesses == 1)
    #expect(loader.currentState == .success(3))
  }

  @Test func cancelDuringBackoffIsForwardedAndStopsRetrying() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(offline)])
    let loader = RetryingLoader(base, maximumAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    let states = loader.state

    loader.cancel()
    await load.cancellableValue
    #expect(base.cancels == 1)
    #expect(clock.sleepers() == 0)
    clock.advance(by: .seconds(3600))
    #expect(base.loads == 1)
    #expect(loader.currentState == .idle)
    #expect(
      await collect(states) { $0.isIdle } == [
        .loading(.retrying(attempt: 2, of: 3)),
        .loading(LoadingProgress.retrying(attempt: 2, of: 3).markingCancelled()),
        .idle,
      ]
    )
    let again = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    #expect(base.loads == 2)
    loader.cancel()
    await again.cancellableValue
  }

  @Test func cancelDuringABaseLoadCancelsTheBaseAndDoesNotRetry() async {
    let clock = ManualClock()
    let runs = Counter()
    let base = TaskLoader<Int> {
      runs.increment()
      try await clock.sleep(for: .seconds(10))
      throw FakeError.offline
    }
    let loader = RetryingLoader(base, maximumAttempts: 3, backoff: .none, clock: clock)
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    loader.cancel()
    await load.cancellableValue
    #expect(base.currentState == .idle)
    #expect(loader.currentState == .idle)
    clock.advance(by: .seconds(60))
    #expect(runs.value == 1)
    #expect(clock.sleepers() == 0)
  }

  @Test func cancellingTheCallerStopsRetrying() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(offline)])
    let loader = RetryingLoader(base, maximumAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    load.cancel()
    await load.cancellableValue
    clock.advance(by: .seconds(60))
    #expect(base.loads == 1)
    #expect(loader.currentState == .idle)
  }

  @Test func cancelIsForwardedEvenWhenIdle() {
    let base = FakeLoader(outcomes: [.success(1)])
    let loader = RetryingLoader(base, clock: ManualClock())
    loader.cancel()
    #expect(base.cancels == 1)
    #expect(loader.currentState == .idle)
  }

  @Test func aSecondLoadWhileRetryingJoinsTheRunningCycle() async {
    let clock = ManualClock()
    let base = FakeLoader(outcomes: [.failure(offline), .success(2)])
    let loader = RetryingLoader(base, maximumAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    let first = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    let second = Task { await loader.load() }
    #expect(await eventually { loader.joinedCallers == 1 })
    clock.advance(by: .seconds(1))
    await first.cancellableValue
    await second.cancellableValue
    #expect(base.loads == 2)
    #expect(loader.currentState == .success(2))
  }

  @Test func clampsTheNumberOfAttemptsToAtLeastOne() async {
    let base = FakeLoader(outcomes: [.failure(offline)])
    let loader = RetryingLoader(base, maximumAttempts: 0, backoff: .none, clock: ManualClock())
    #expect(loader.maximumAttempts == 1)
    await loader.load()
    #expect(base.loads == 1)
    #expect(loader.currentState == .failure(offline))
  }

  @Test func mirrorsTheBasesStateWhenCreated() async {
    let base = TaskLoader { 5 }
    await base.load()
    let loader = RetryingLoader(base, clock: ManualClock())
    #expect(loader.currentState == .success(5))
  }

  @Test func deallocatingTheLoaderStopsObservingTheBase() async {
    let base = FakeLoader(outcomes: [.success(1)])
    var loader: RetryingLoader<FakeLoader>? = RetryingLoader(base, clock: ManualClock())
    await loader?.load()
    #expect(base.relay.observerCount == 1)
    weak let weakLoader = loader
    loader = nil
    #expect(weakLoader == nil)
    #expect(await eventually { base.relay.observerCount == 0 })
  }

  @Test func deallocatingTheLoaderFinishesItsStreams() async {
    var loader: RetryingLoader<FakeLoader>? = RetryingLoader(
      FakeLoader(outcomes: [.success(1)]),
      clock: ManualClock()
    )
    let states = loader?.state
    await loader?.load()
    loader = nil
    let seen = await collect(states ?? AsyncStream { $0.finish() })
    #expect(seen.last == .success(1))
  }
}
