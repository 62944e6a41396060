import Hummingbird
import Store

/// `/api/profiles`: the profiles, creating one, choosing the active one.
struct ProfilesController: Sendable {
  /// The store.
  let store: Store

  /// `GET /`, `POST /`, `POST /:name/use`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(try store.profiles()) }
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.Profile.self, context: context)
      return JSONResponse.reply(request, try store.createProfile(body.name), status: .created, back: "/sources")
    }
    routes.post(":name/use") { request, context in
      JSONResponse.reply(request, try store.useProfile(try context.parameters.require("name")), back: "/sources")
    }
    return routes
  }
}
