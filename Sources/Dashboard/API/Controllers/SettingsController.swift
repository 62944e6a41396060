import Hummingbird

/// `/api/settings`: the probe, resolver, timeout and default target the pages use.
struct SettingsController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("settings") { _, _ in JSONResponse.make(Settings.load(from: dashboard.configuration.data)) }
    group.post("settings") { request, context in
      let change = try await request.decode(as: Settings.Change.self, context: context)
      let settings = try Settings.load(from: dashboard.configuration.data).applying(change).validated()
      try settings.save(to: dashboard.configuration.data)
      return dashboard.reply(request, settings, back: "/test")
    }
  }
}
