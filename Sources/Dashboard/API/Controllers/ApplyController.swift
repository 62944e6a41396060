import Apply
import Hummingbird

/// `/api/apply`: applying the active profile to a target, or previewing what that would change.
struct ApplyController: Sendable {
  /// Applying.
  let applier: ApplyService

  /// `POST /`, `POST /preview`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.post("preview") { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      return JSONResponse.make(try await applier.apply(body, dryRun: true))
    }
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      let view = try await applier.apply(body, dryRun: false)
      // A plain form comes back to the page, which then says what happened.
      let outcome = view.result.wrote ? "wrote" : "unchanged"
      return JSONResponse.reply(request, view, back: "/apply?target=\(view.result.target)&outcome=\(outcome)")
    }
    return routes
  }
}
