import Loading
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5)))
struct LoadableTests {
  /// Loads through the protocol only, as generic client code would.
  private func loadAndSettle(_ loadable: any Loadable<Int>) async -> LoadingState<Int> {
    await loadable.load()
    return loadable.currentState
  }

  @Test func everyLoaderWorksThroughTheProtocol() async {
    let loaders: [any Loadable<Int>] = [
      TaskLoader { 1 },
      RetryingLoader(TaskLoader { 1 }, clock: ManualClock()),
      DebouncingLoader(TaskLoader { 1 }, interval: .zero, clock: ManualClock()),
      RetryingLoader(
        DebouncingLoader(TaskLoader { 1 }, interval: .zero, clock: ManualClock()), clock: ManualClock()),
    ]
    for loader in loaders {
      #expect(await loadAndSettle(loader) == .success(1))
      #expect(await collect(loader.state) { _ in true } == [.success(1)])
    }
  }

  @Test func wrappersComposeAndStillRetryFailures() async {
    let clock = ManualClock()
    let attempts = Counter()
    let base = TaskLoader<Int> {
      if attempts.increment() < 3 { throw FakeError.offline }
      return 9
    }
    let loader = RetryingLoader(
      DebouncingLoader(base, interval: .zero, clock: clock),
      maximumAttempts: 3,
      backoff: .none,
      clock: clock
    )
    #expect(await loadAndSettle(loader) == .success(9))
    #expect(attempts.value == 3)
  }
}
