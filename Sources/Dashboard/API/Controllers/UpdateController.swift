import Hummingbird
import Loading

/// `/api/update`: the update job: its status, starting, cancelling it or one source, its event stream.
struct UpdateController: Sendable {
  /// The update job.
  let updates: UpdateService
  /// Server-Sent Events.
  let events: EventStream

  /// `GET /`, `POST /`, `POST /cancel`, `POST /sources/:key/cancel`, `GET /events`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(updates.relay.currentValue) }
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.Update.self, context: context)
      let status = try await updates.start(force: body.force?.value ?? false)
      return JSONResponse.reply(request, status, status: .accepted, back: "/sources")
    }
    routes.post("cancel") { request, _ in
      JSONResponse.reply(request, ["cancelled": await updates.cancel()], back: "/sources")
    }
    routes.post("sources/:key/cancel") { request, context in
      let cancelled = try updates.cancel(source: try context.parameters.require("key"))
      return JSONResponse.reply(request, ["cancelled": cancelled], back: "/sources")
    }
    routes.get("events") { _, _ in events.statuses(updates.relay) }
    return routes
  }
}
