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
  private let explainer: Explainer
  private let loader: DebouncingLoader<TaskLoader<Explainer.Answer>>

  /// A search of the active profile, waiting `interval` of quiet before it runs.
  init(store: Store, interval: Duration = .milliseconds(150), clock: some Clock<Duration> = ContinuousClock()) {
    let explainer = Explainer(store: store)
    let query = queryText
    self.explainer = explainer
    loader = DebouncingLoader(
      TaskLoader { try await explainer.explain([query.withLock { $0 }]) }, interval: interval, clock: clock)
  }

  /// The newest text asked for.
  var query: String { queryText.withLock { $0 } }

  /// The answer for the newest query of the burst `name` belongs to (its `names[0].query` says which).
  func answer(_ name: String) async throws -> Explainer.Answer {
    queryText.withLock { $0 = name }
    await loader.load()
    switch loader.currentState {
    case .success(let answer): return answer
    case .failure(let failure): throw failure.error
    case .idle, .loading: return try await explainer.explain([name])  // cancelled meanwhile: answer it alone
    }
  }

  /// An answer now, without waiting for quiet (the page without script, or several names).
  func answerNow(_ names: [String]) async throws -> Explainer.Answer {
    try await explainer.explain(names)
  }
}
