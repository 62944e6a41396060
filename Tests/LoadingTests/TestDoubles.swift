import Foundation
import Loading
import Locking

/// An error for tests, with a readable description.
enum FakeError: Error, Equatable, LocalizedError {
  case offline
  case timedOut

  var errorDescription: String? {
    switch self {
    case .offline: "The fake server is offline"
    case .timedOut: "The fake server timed out"
    }
  }
}

/// A `Loadable` whose `load()` publishes, without suspending, `.loading(10%)`, `.loading(50%)` and then the
/// next scripted outcome (the last outcome repeats). It counts loads, cancels and reads of `state`.
final class FakeLoader: Loadable {
  typealias Value = Int

  private struct Counters {
    var loads = 0
    var cancels = 0
    var stateAccesses = 0
    var stateAccessesAtFirstLoad: Int?
  }

  let relay = StateRelay<LoadingState<Int>>(.idle)
  private let outcomes: [LoadingState<Int>]
  private let counters = Locked(Counters())

  init(outcomes: [LoadingState<Int>]) {
    precondition(!outcomes.isEmpty)
    self.outcomes = outcomes
  }

  var state: AsyncStream<LoadingState<Int>> {
    counters.withLock { $0.stateAccesses += 1 }
    return relay.stream
  }

  var currentState: LoadingState<Int> { relay.currentValue }
  var loads: Int { counters.withLock { $0.loads } }
  var cancels: Int { counters.withLock { $0.cancels } }
  var stateAccesses: Int { counters.withLock { $0.stateAccesses } }
  var stateAccessesAtFirstLoad: Int? { counters.withLock { $0.stateAccessesAtFirstLoad } }

  func load() async {
    let index = counters.withLock { counters -> Int in
      if counters.stateAccessesAtFirstLoad == nil {
        counters.stateAccessesAtFirstLoad = counters.stateAccesses
      }
      counters.loads += 1
      return counters.loads - 1
    }
    relay.update(.loading(LoadingProgress(percent: 10)))
    relay.update(.loading(LoadingProgress(percent: 50)))
    relay.update(outcomes[min(index, outcomes.count - 1)])
  }

  func cancel() {
    counters.withLock { $0.cancels += 1 }
  }
}

/// A gate tasks wait at until it is opened; unlike a latch, waiting ignores task cancellation.
final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  var waiterCount: Int { state.withLock { $0.waiters.count } }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isOpen = state.withLock { state -> Bool in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// A thread-safe counter for closures run by loaders.
final class Counter: Sendable {
  private let count = Locked(0)

  var value: Int { count.withLock { $0 } }

  @discardableResult
  func increment() -> Int {
    count.withLock { count in
      count += 1
      return count
    }
  }
}

/// Yields until `condition` holds, giving up after `maxYields` yields; returns whether it held.
func eventually(maxYields: Int = 100_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<maxYields {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

/// Consumes `stream` until an element satisfies `isLast` (or the stream ends); returns what it saw.
func collect<Element: Sendable>(
  _ stream: AsyncStream<Element>,
  until isLast: (Element) -> Bool = { _ in false }
) async -> [Element] {
  var elements: [Element] = []
  for await element in stream {
    elements.append(element)
    if isLast(element) { break }
  }
  return elements
}

extension LoadingState {
  /// Whether the state is `.success` or `.failure`.
  var isSettledWithResult: Bool {
    switch self {
    case .success, .failure: true
    case .idle, .loading: false
    }
  }
}

extension Task where Failure == Never {
  /// The task's value; if the awaiting test is cancelled (say by its time limit), the task is cancelled too,
  /// so a broken behaviour makes the test fail instead of hanging the whole run.
  var cancellableValue: Success {
    get async {
      await withTaskCancellationHandler {
        await value
      } onCancel: {
        cancel()
      }
    }
  }
}

extension Task where Failure == any Error {
  /// The task's value; if the awaiting test is cancelled (say by its time limit), the task is cancelled too,
  /// so a broken behaviour makes the test fail instead of hanging the whole run.
  var cancellableValue: Success {
    get async throws {
      try await withTaskCancellationHandler {
        try await value
      } onCancel: {
        cancel()
      }
    }
  }
}
