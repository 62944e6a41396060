import Hummingbird
import Loading
import Locking
import Updates

/// `/api/update…`: the update job: its status, starting, cancelling it or one source, its event stream.
struct UpdateController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("update") { _, _ in JSONResponse.make(dashboard.updates.relay.currentValue) }
    group.post("update") { request, context in
      let body = try await request.decode(as: APIRequest.Update.self, context: context)
      return dashboard.reply(
        request, try await dashboard.startUpdate(force: body.force?.value ?? false), status: .accepted, back: "/sources"
      )
    }
    group.post("update/cancel") { request, _ in
      let cancelled = await dashboard.updates.cancel()
      return dashboard.reply(request, ["cancelled": cancelled], back: "/sources")
    }
    group.post("update/sources/:key/cancel") { request, context in
      let key = try context.parameters.require("key")
      let status = dashboard.updates.relay.currentValue
      guard status.sources.contains(where: { $0.key == key }) else {
        throw DashboardError.notFound(
          "The update has no source “\(key)”: it is not in the active profile, or disabled.")
      }
      // False once the source (or the run) has ended.
      let cancelled = status.state == .running && dashboard.updateSources.withLock { $0 }.cancel(key)
      return dashboard.reply(request, ["cancelled": cancelled], back: "/sources")
    }
    group.get("update/events") { _, _ in dashboard.events(dashboard.updates.relay) }
  }
}
