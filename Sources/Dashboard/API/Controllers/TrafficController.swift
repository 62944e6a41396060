import Foundation
import Hummingbird
import Traffic

/// `/api/traffic`: which lists block the network's queries (the query logs of `serve --log`), and the live
/// feed of blocked names over Server-Sent Events.
struct TrafficController: Sendable {
  /// The query logs against the active profile.
  let traffic: TrafficReader
  /// Server-Sent Events.
  let events: EventStream

  /// `GET /?since=…`, `GET /events`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      JSONResponse.make(try await traffic.report(since: request.uri.queryParameters["since"].map(String.init)))
    }
    routes.get("events") { _, _ in feed() }
    return routes
  }

  /// The live feed: each blocked query as a `hit` event (a `FeedItem` as JSON) as the logs grow, a
  /// `failure` event when a log cannot be read.
  func feed() -> Response {
    let traffic = self.traffic
    return events.response { continuation in
      await traffic.follow(
        hit: { continuation.yield(EventStream.message("hit", $0)) },
        failed: {
          continuation.yield(EventStream.message("failure", text: $0.replacingOccurrences(of: "\n", with: " ")))
        })
    }
  }
}
