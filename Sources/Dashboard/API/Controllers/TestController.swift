import BlockerTest
import Hummingbird
import Loading
import Store

/// `/api/test`: the blocker-test job: its status, starting, cancelling, its event stream, the latest report.
struct TestController: Sendable {
  /// The test job.
  let tests: TestService
  /// Server-Sent Events.
  let events: EventStream

  /// `GET /`, `POST /`, `POST /cancel`, `GET /events`, `GET /result`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(tests.relay.currentValue) }
    routes.post { request, context in
      let body = try await request.decode(as: TestRequest.self, context: context)
      return JSONResponse.reply(request, try await tests.start(body), status: .accepted, back: "/test")
    }
    routes.post("cancel") { request, _ in
      JSONResponse.reply(request, ["cancelled": await tests.cancel()], back: "/test")
    }
    routes.get("events") { _, _ in events.statuses(tests.relay) }
    routes.get("result") { _, _ in
      guard let report = try History(store: tests.store).latest() else {
        throw DashboardError.notFound("No blocker test has run yet: start one on the Test page or POST /api/test.")
      }
      return JSONResponse.make(report)
    }
    return routes
  }
}
