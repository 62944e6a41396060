import BlockerTest
import Hummingbird
import Store

/// `/api/history`: the saved blocker-test runs, one run's report and its export.
struct HistoryController: Sendable {
  /// The saved runs.
  let reports: RunReports

  /// `GET /`, `GET /:id`, `GET /:id/export?format=…`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(try reports.store.testRuns().map(RunView.init)) }
    routes.get(":id") { _, context in JSONResponse.make(try reports.report(context.parameters.require("id"))) }
    routes.get(":id/export") { request, context in
      let report = try reports.report(context.parameters.require("id"))
      return try RunReports.export(report, format: request.uri.queryParameters["format"].map(String.init) ?? "json")
    }
    return routes
  }
}
