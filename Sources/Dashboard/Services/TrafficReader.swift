import Foundation
import Store
import Traffic
import UseCases

/// The network's traffic against the active profile, from the query logs of `serve --log`.
struct TrafficReader: Sendable {
  /// The store (the profile's lists).
  let store: Store
  /// The query logs.
  let logs: [LogSource]

  /// The report over the logs since `since` (a duration or a date; default 24 h).
  func report(since: String?) async throws -> HitReport {
    let start = try NetworkHits.since(since ?? "24h")
    return try await NetworkHits(store: store).report(NetworkHits.Request(logs: logs, since: start))
  }

  /// Follows the logs, handing each blocked query to `hit` until cancelled; a failure is handed to `failed`
  /// as a sentence.
  func follow(hit: (FeedItem) -> Void, failed: (String) -> Void) async {
    do {
      try await NetworkHits(store: store).follow(NetworkHits.Request(logs: logs)) { item in hit(item) }
    } catch is CancellationError {
    } catch {
      failed((error as? any LocalizedError)?.errorDescription ?? "\(error)")
    }
  }
}
