import BlockerTest
import Hummingbird

/// `/api/diff`: what changed between two saved runs.
struct RunDiffController: Sendable {
  /// The saved runs.
  let reports: RunReports

  /// `GET /?from=ID&to=ID`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let (old, new) = try reports.pair(request)
      return JSONResponse.make(RunDifference(from: old, to: new))
    }
    return routes
  }
}
