import Hummingbird
import Store

/// `/api/rules…`: the active profile's allow and deny rules.
struct RulesController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("rules") { _, _ in JSONResponse.make(try dashboard.store.rules()) }
    group.post("rules") { request, context in
      let body = try await request.decode(as: APIRequest.Rule.self, context: context)
      let rule = try dashboard.store.addRule(body.pattern, action: try Dashboard.action(body.kind))
      return dashboard.reply(request, rule, status: .created, back: Dashboard.localPage(body.back) ?? "/sources")
    }
    group.post("rules/remove") { request, context in
      let body = try await request.decode(as: APIRequest.Rule.self, context: context)
      try dashboard.store.removeRule(body.pattern, action: try Dashboard.action(body.kind))
      return dashboard.reply(request, ["removed": body.pattern], back: "/sources")
    }
  }
}
