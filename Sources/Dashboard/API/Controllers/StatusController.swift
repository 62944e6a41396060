import Hummingbird
import Loading

/// `/api/status`: the overview as JSON (the active profile, its sources, the last test, warnings, the jobs).
struct StatusController: Sendable {
  /// The active profile's state, read again only after a write.
  let storeView: StoreView
  /// The update job's status.
  let update: StateRelay<UpdateStatus>
  /// The test job's status.
  let test: StateRelay<TestStatus>

  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in
      JSONResponse.make(
        OverviewView(
          try storeView.current(), update: update.currentValue, test: test.currentValue,
          pending: storeView.pendingReapplies()))
    }
    return routes
  }
}
