import Foundation
import Loading
import Locking
import Store
import UseCases

/// The Why? box's searches, debounced: each request sets the query and loads through the Loading
/// library's `DebouncingLoader`, so a burst of keystrokes (one request each) runs one explanation, of
/// the newest text, and every request of the burst returns with it. The page shows an answer only when
/// it is for the text in the box.
final class WhySearch: Sendable {
  private let queryText = Locked("")
  private let explain: @Sendable ([String]) async throws -> Explainer.Answer
  private let loader: DebouncingLoader<TaskLoader<Explainer.Answer>>

  /// A search of the active profile, waiting `interval` of quiet before it runs.
  convenience init(
    store: Store, interval: Duration = .milliseconds(150), clock: some Clock<Duration> = ContinuousClock()
  ) {
    let explainer = Explainer(store: store)
    self.init(interval: interval, clock: clock) { try await explainer.explain($0) }
  }

  /// A search that answers with `explain` (tests give their own).
  init(
    interval: Duration, clock: some Clock<Duration>,
    explain: @escaping @Sendable ([String]) async throws -> Explainer.Answer
  ) {
    let query = queryText
    self.explain = explain
    loader = DebouncingLoader(
      TaskLoader { try await explain([query.withLock { $0 }]) }, interval: interval, clock: clock)
  }

  /// The newest text asked for.
  var query: String { queryText.withLock { $0 } }

  /// The answer for the newest query of the burst `name` belongs to (its `names[0].query` says which).
  ///
  /// A debounced load that fires while the explanation of an older text still runs joins that run (a
  /// `TaskLoader` runs one operation at a time) and gets the older answer: while `name` is still the
  /// newest text, it loads again, so the last request of a burst is always answered for its own text.
  func answer(_ name: String) async throws -> Explainer.Answer {
    queryText.withLock { $0 = name }
    for _ in 0..<4 {
      await loader.load()
      switch loader.currentState {
      case .success(let answer):
        if answer.names.first?.query == name || query != name { return answer }
      case .failure(let failure):
        throw failure.error
      case .idle, .loading:
        break  // cancelled meanwhile
      }
    }
    return try await explain([name])
  }

  /// An answer now, without waiting for quiet (the page without script, or several names).
  func answerNow(_ names: [String]) async throws -> Explainer.Answer {
    try await explain(names)
  }
}
