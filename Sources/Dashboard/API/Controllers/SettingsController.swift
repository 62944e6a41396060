import Hummingbird
import Store

/// `/api/settings`: the probe, resolver, timeout and default target the pages use.
struct SettingsController: Sendable {
  /// The data directory holding `dashboard.json`.
  let data: DataDirectory

  /// `GET /`, `POST /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(Settings.load(from: data)) }
    routes.post { request, context in
      let change = try await request.decode(as: Settings.Change.self, context: context)
      let settings = try Settings.load(from: data).applying(change).validated()
      try settings.save(to: data)
      return JSONResponse.reply(request, settings, back: "/test")
    }
    return routes
  }
}
