import BlockerTest
import Hummingbird
import Loading
import Store

/// `/api/test…`: the blocker-test job: its status, starting, cancelling, its event stream, the latest report.
struct TestController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("test") { _, _ in JSONResponse.make(dashboard.tests.relay.currentValue) }
    group.post("test") { request, context in
      let body = try await request.decode(as: TestRequest.self, context: context)
      return dashboard.reply(request, try await dashboard.startTest(body), status: .accepted, back: "/test")
    }
    group.post("test/cancel") { request, _ in
      let cancelled = await dashboard.tests.cancel()
      return dashboard.reply(request, ["cancelled": cancelled], back: "/test")
    }
    group.get("test/events") { _, _ in dashboard.events(dashboard.tests.relay) }
    group.get("test/result") { _, _ in
      guard let report = try History(store: dashboard.store).latest() else {
        throw DashboardError.notFound("No blocker test has run yet: start one on the Test page or POST /api/test.")
      }
      return JSONResponse.make(report)
    }
  }
}
