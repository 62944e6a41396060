import Locking
import Testing

@testable import Loading

@Suite(.timeLimit(.minutes(5)))
struct StateObserverTests {
  @Test func subscribesOnlyOnceAndSkipsTheReplayedState() async {
    let relay = StateRelay<LoadingState<Int>>(.success(0))
    let observer = StateObserver<Int>()
    let subscriptions = Counter()
    let forwarded = Locked<[LoadingState<Int>]>([])
    let subscribe = {
      subscriptions.increment()
      return relay.stream
    }
    let onState: @Sendable (LoadingState<Int>) -> Void = { state in forwarded.withLock { $0.append(state) } }
    #expect(!observer.hasStarted)
    await observer.start(subscribe: subscribe, onState: onState)
    await observer.start(subscribe: subscribe, onState: onState)
    #expect(observer.hasStarted)
    #expect(subscriptions.value == 1)
    relay.update(.loading(LoadingProgress()))
    relay.update(.success(1))
    #expect(await observer.waitForSettled(after: 0) == .success(1))
    #expect(forwarded.withLock { $0 } == [.loading(LoadingProgress()), .success(1)])
  }

  @Test func countsOnlySettledStates() async {
    let relay = StateRelay<LoadingState<Int>>(.idle)
    let observer = StateObserver<Int>()
    await observer.start(subscribe: { relay.stream }, onState: { _ in })
    #expect(observer.settledCount == 0)
    let waiter = Task { await observer.waitForSettled(after: 0) }
    relay.update(.loading(LoadingProgress(percent: 50)))
    relay.update(.failure(FakeError.offline))
    let settled = await waiter.cancellableValue
    #expect(settled?.error as? FakeError == .offline)
    #expect(observer.settledCount == 1)
    relay.update(.idle)
    #expect(await observer.waitForSettled(after: 1) == .idle)
    #expect(observer.settledCount == 2)
  }

  @Test func aCancelledWaiterGetsNil() async {
    let relay = StateRelay<LoadingState<Int>>(.idle)
    let observer = StateObserver<Int>()
    await observer.start(subscribe: { relay.stream }, onState: { _ in })
    let waiter = Task { await observer.waitForSettled(after: 0) }
    waiter.cancel()
    #expect(await waiter.cancellableValue == nil)
  }

  @Test func anEndedStreamReleasesWaiters() async {
    let relay = StateRelay<LoadingState<Int>>(.idle)
    let observer = StateObserver<Int>()
    await observer.start(subscribe: { relay.stream }, onState: { _ in })
    let waiter = Task { await observer.waitForSettled(after: 0) }
    relay.finish()
    #expect(await waiter.cancellableValue == nil)
    #expect(await observer.waitForSettled(after: 0) == nil)
  }

  @Test func stopEndsTheSubscription() async {
    let relay = StateRelay<LoadingState<Int>>(.idle)
    let observer = StateObserver<Int>()
    await observer.start(subscribe: { relay.stream }, onState: { _ in })
    #expect(relay.observerCount == 1)
    observer.stop()
    #expect(await eventually { relay.observerCount == 0 })
    #expect(await observer.waitForSettled(after: 0) == nil)
  }

  @Test func deallocatingTheObserverEndsTheSubscription() async {
    let relay = StateRelay<LoadingState<Int>>(.idle)
    var observer: StateObserver<Int>? = StateObserver<Int>()
    await observer?.start(subscribe: { relay.stream }, onState: { _ in })
    #expect(relay.observerCount == 1)
    observer = nil
    #expect(await eventually { relay.observerCount == 0 })
  }
}
