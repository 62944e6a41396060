import Foundation
import Hummingbird
import Traffic
import UseCases

/// `/api/traffic…`: which lists block the network's queries (the query logs of `serve --log`), and the
/// live feed of blocked names over Server-Sent Events.
struct TrafficController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("traffic") { request, _ in
      JSONResponse.make(try await dashboard.traffic(since: request.uri.queryParameters["since"].map(String.init)))
    }
    group.get("traffic/events") { _, _ in dashboard.trafficEvents() }
  }
}

extension Dashboard {
  /// The report over the configured logs since `since` (a duration or a date; default 24 h).
  func traffic(since: String?) async throws -> HitReport {
    let start = try NetworkHits.since(since ?? "24h")
    return try await NetworkHits(store: store).report(NetworkHits.Request(logs: configuration.queryLogs, since: start))
  }

  /// The live feed: each blocked query as a `hit` event (a `FeedItem` as JSON) as the logs grow, a comment
  /// every `heartbeat` while idle; it ends when the page goes away or the server shuts down.
  func trafficEvents() -> Response {
    let logs = configuration.queryLogs
    let store = self.store
    return eventStream { continuation in
      do {
        try await NetworkHits(store: store).follow(NetworkHits.Request(logs: logs)) { item in
          continuation.yield(Self.eventMessage("hit", item))
        }
      } catch is CancellationError {
      } catch {
        let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        continuation.yield("event: failure\ndata: \(message.replacingOccurrences(of: "\n", with: " "))\n\n")
      }
    }
  }
}
