import Locking
import TestSupport
import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct TaskLoaderTests {
  @Test func startsIdle() {
    let loader = TaskLoader { 1 }
    #expect(loader.currentState == .idle)
  }

  @Test func publishesLoadingThenTheValue() async {
    let loader = TaskLoader { 42 }
    let states = loader.state
    await loader.load()
    #expect(loader.currentState == .success(42))
    #expect(
      await collect(states) { $0.isSettledWithResult } == [.idle, .loading(LoadingProgress()), .success(42)])
  }

  @Test func publishesAFailureWrappingTheError() async {
    let loader = TaskLoader<Int> { throw FakeError.offline }
    await loader.load()
    #expect(loader.currentState.error as? FakeError == .offline)
    #expect(loader.currentState.loadingFailure?.message == "The fake server is offline")
  }

  @Test func publishesReportedProgressInOrder() async {
    let loader = TaskLoader { reporter in
      reporter.report(message: "Connecting", percent: 10)
      reporter.report(LoadingProgress(message: "Downloading", fraction: 0.5))
      return "done"
    }
    let states = loader.state
    await loader.load()
    #expect(
      await collect(states) { $0.isSettledWithResult } == [
        .idle,
        .loading(LoadingProgress()),
        .loading(LoadingProgress(message: "Connecting", percent: 10)),
        .loading(LoadingProgress(message: "Downloading", percent: 50)),
        .success("done"),
      ]
    )
  }

  @Test func ignoresProgressReportedAfterTheLoadSettled() async {
    let escaped = Locked<ProgressReporter?>(nil)
    let loader = TaskLoader { reporter in
      escaped.withLock { $0 = reporter }
      return 1
    }
    await loader.load()
    escaped.withLock { $0 }?.report(message: "Late", percent: 99)
    #expect(loader.currentState == .success(1))
  }

  @Test func reloadingReplacesTheValue() async {
    let counter = Counter()
    let loader = TaskLoader { counter.increment() }
    await loader.load()
    await loader.load()
    #expect(loader.currentState == .success(2))
    #expect(counter.value == 2)
  }

  @Test func aSecondLoadWhileLoadingJoinsTheRunningLoad() async {
    let clock = ManualClock()
    let runs = Counter()
    let loader = TaskLoader {
      let run = runs.increment()
      try await clock.sleep(for: .seconds(1))
      return run
    }
    let first = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    let second = Task { await loader.load() }
    #expect(await eventually { loader.joinedCallers == 1 })
    clock.advance(by: .seconds(1))
    await first.cancellableValue
    await second.cancellableValue
    #expect(runs.value == 1)
    #expect(loader.currentState == .success(1))
  }

  @Test func cancelStopsTheOperationAndEndsIdle() async {
    let clock = ManualClock()
    let sawCancellation = Locked(false)
    let loader = TaskLoader { reporter in
      reporter.report(message: "Waiting", percent: 20)
      do {
        try await clock.sleep(for: .seconds(60))
      } catch {
        sawCancellation.withLock { $0 = error is CancellationError }
        throw error
      }
      return 1
    }
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    loader.cancel()
    await load.cancellableValue
    #expect(loader.currentState == .idle)
    #expect(sawCancellation.withLock { $0 })
    #expect(clock.sleepers() == 0)
  }

  @Test func cancelPublishesACancelledProgressBeforeIdle() async {
    let clock = ManualClock()
    let loader = TaskLoader { reporter in
      reporter.report(message: "Waiting", percent: 20)
      try await clock.sleep(for: .seconds(60))
      return 1
    }
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    let states = loader.state
    loader.cancel()
    await load.cancellableValue
    #expect(
      await collect(states) { $0.isIdle } == [
        .loading(LoadingProgress(message: "Waiting", percent: 20)),
        .loading(LoadingProgress(message: "Waiting", percent: 20, isCancelled: true)),
        .idle,
      ]
    )
  }

  @Test func aCancelledLoadEndsIdleEvenIfTheOperationReturnsAValue() async {
    let clock = ManualClock()
    let loader = TaskLoader {
      try? await clock.sleep(for: .seconds(60))
      return 7
    }
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    loader.cancel()
    await load.cancellableValue
    #expect(loader.currentState == .idle)
  }

  @Test func cancelWhileIdleChangesNothing() async {
    let loader = TaskLoader { 3 }
    await loader.load()
    loader.cancel()
    #expect(loader.currentState == .success(3))
  }

  @Test func cancellingTheCallerCancelsTheOperation() async {
    let clock = ManualClock()
    let loader = TaskLoader<Int> {
      try await clock.sleep(for: .seconds(60))
      return 1
    }
    let load = Task { await loader.load() }
    #expect(await clock.waitForSleepers(1))
    load.cancel()
    await load.cancellableValue
    #expect(loader.currentState == .idle)
    #expect(clock.sleepers() == 0)
  }

  @Test func anOperationThrowingCancellationErrorEndsIdle() async {
    let loader = TaskLoader<Int> { throw CancellationError() }
    await loader.load()
    #expect(loader.currentState == .idle)
  }

  @Test func aLoadAfterCancelWaitsForTheCancelledRunThenStartsAFreshOne() async {
    let gate = Gate()
    let runs = Counter()
    let loader = TaskLoader {
      let run = runs.increment()
      if run == 1 { await gate.wait() }
      return run
    }
    let first = Task { await loader.load() }
    #expect(await eventually { gate.waiterCount == 1 })
    loader.cancel()
    let second = Task { await loader.load() }
    gate.open()
    await first.cancellableValue
    await second.cancellableValue
    #expect(runs.value == 2)
    #expect(loader.currentState == .success(2))
  }

  @Test func aNewObserverGetsTheCurrentStateFirst() async {
    let loader = TaskLoader { "cached" }
    await loader.load()
    #expect(await collect(loader.state) { _ in true } == [.success("cached")])
  }

  @Test func deallocatingTheLoaderFinishesItsStreams() async {
    var loader: TaskLoader<Int>? = TaskLoader { 1 }
    let states = loader?.state
    await loader?.load()
    loader = nil
    let seen = await collect(states ?? AsyncStream { $0.finish() })
    #expect(seen == [.idle, .loading(LoadingProgress()), .success(1)])
  }
}
