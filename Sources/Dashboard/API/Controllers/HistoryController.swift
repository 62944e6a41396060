import BlockerTest
import Hummingbird
import Store

/// `/api/history…` and `/api/diff`: saved blocker-test runs, their exports and the difference of two.
struct HistoryController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("history") { _, _ in JSONResponse.make(try dashboard.store.testRuns().map(RunView.init)) }
    group.get("history/:id") { _, context in JSONResponse.make(try dashboard.report(context.parameters.require("id"))) }
    group.get("history/:id/export") { request, context in
      let report = try dashboard.report(context.parameters.require("id"))
      let format = request.uri.queryParameters["format"].map(String.init) ?? "json"
      return try dashboard.export(report, format: format)
    }
    group.get("diff") { request, _ in
      let (old, new) = try dashboard.diffPair(request)
      return JSONResponse.make(RunDifference(from: old, to: new))
    }
  }
}
