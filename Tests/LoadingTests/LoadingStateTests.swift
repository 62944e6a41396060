import Loading
import Testing

@Suite
struct LoadingStateTests {
  @Test func accessorsOfIdle() {
    let state = LoadingState<Int>.idle
    #expect(state.isIdle)
    #expect(!state.isLoading)
    #expect(state.value == nil)
    #expect(state.error == nil)
    #expect(state.progress == nil)
  }

  @Test func accessorsOfLoading() {
    let state = LoadingState<Int>.loading(LoadingProgress(percent: 20))
    #expect(state.isLoading)
    #expect(!state.isIdle)
    #expect(state.progress == LoadingProgress(percent: 20))
    #expect(state.value == nil)
  }

  @Test func accessorsOfSuccess() {
    let state = LoadingState<String>.success("hosts")
    #expect(state.value == "hosts")
    #expect(!state.isLoading)
    #expect(state.error == nil)
    #expect(state.loadingFailure == nil)
  }

  @Test func accessorsOfFailure() {
    let state = LoadingState<Int>.failure(FakeError.offline)
    #expect(state.error as? FakeError == .offline)
    #expect(state.loadingFailure?.message == "The fake server is offline")
    #expect(state.value == nil)
    #expect(!state.isLoading)
  }

  @Test func failureFromAnErrorKeepsAnExistingFailure() {
    let failure = LoadingFailure(FakeError.timedOut)
    let wrapped: any Error & Sendable = failure
    #expect(LoadingState<Int>.failure(wrapped) == .failure(failure))
    #expect(LoadingState<Int>.failure(wrapped).loadingFailure == failure)
  }

  @Test func equatableWhenTheValueIs() {
    let failure = LoadingFailure(FakeError.offline)
    #expect(LoadingState<Int>.success(1) == .success(1))
    #expect(LoadingState<Int>.success(1) != .success(2))
    #expect(LoadingState<Int>.idle != .loading(LoadingProgress()))
    #expect(LoadingState<Int>.failure(failure) == .failure(failure))
    #expect(LoadingState<Int>.failure(FakeError.offline) != .failure(FakeError.offline))
  }

  @Test func hashableWhenTheValueIs() {
    let states: Set<LoadingState<Int>> = [
      .idle, .idle, .loading(LoadingProgress()), .success(3), .success(3),
      .failure(FakeError.offline), .failure(FakeError.offline),
    ]
    #expect(states.count == 5)
  }

  @Test func isSendable() async {
    let state = LoadingState<[String]>.success(["a"])
    let copy = await Task.detached { state }.value
    #expect(copy.value == ["a"])
  }
}
