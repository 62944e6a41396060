import Hummingbird

/// `/api/session`: the CSRF token for scripts on this machine (the same one every page carries; no CORS,
/// so other sites cannot read it).
struct SessionController: Sendable {
  /// The CSRF token of this server run.
  let csrf: String

  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(["csrf": csrf]) }
    return routes
  }
}
