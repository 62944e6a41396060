import Hummingbird
import Store

/// `/api/profiles…`: the profiles, creating one, choosing the active one.
struct ProfilesController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("profiles") { _, _ in JSONResponse.make(try dashboard.store.profiles()) }
    group.post("profiles") { request, context in
      let body = try await request.decode(as: APIRequest.Profile.self, context: context)
      let profile = try dashboard.store.createProfile(body.name)
      return dashboard.reply(request, profile, status: .created, back: "/sources")
    }
    group.post("profiles/:name/use") { request, context in
      let profile = try dashboard.store.useProfile(try context.parameters.require("name"))
      return dashboard.reply(request, profile, back: "/sources")
    }
  }
}
