import Blocklists
import Hummingbird
import Store
import UseCases

/// `/api/overlap`: names per enabled list, shared and unique.
struct OverlapController: Sendable {
  /// The store.
  let store: Store

  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(try await Overlap.report(in: store)) }
    return routes
  }
}
