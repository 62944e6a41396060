import Apply
import Hummingbird

/// `/api/restore`: putting a backup of a target's file back.
struct RestoreController: Sendable {
  /// The files the targets write.
  let applier: ApplyService

  /// `POST /` `{target, id}`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.Restore.self, context: context)
      let outcome = try applier.restore(body)
      return JSONResponse.reply(
        request, ["restored": body.id, "wrote": outcome.wrote ? "yes" : "no", "backup": outcome.backup?.id ?? ""],
        back: "/apply")
    }
    return routes
  }
}
