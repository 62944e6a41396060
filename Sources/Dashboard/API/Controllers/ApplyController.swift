import Apply
import Hummingbird

/// `/api/apply…`, `/api/backups` and `/api/restore`: applying the profile to a target, its backups.
struct ApplyController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.post("apply/preview") { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      return JSONResponse.make(try await dashboard.apply(body, dryRun: true))
    }
    group.post("apply") { request, context in
      let body = try await request.decode(as: APIRequest.Apply.self, context: context)
      let view = try await dashboard.apply(body, dryRun: false)
      // A plain form comes back to the page, which then says what happened.
      let outcome = view.result.wrote ? "wrote" : "unchanged"
      return dashboard.reply(request, view, back: "/apply?target=\(view.result.target)&outcome=\(outcome)")
    }
    group.get("backups") { request, _ in
      let target = try Dashboard.target(request.uri.queryParameters["target"].map(String.init))
      return JSONResponse.make(dashboard.backups(of: target))
    }
    group.post("restore") { request, context in
      let body = try await request.decode(as: APIRequest.Restore.self, context: context)
      let file = dashboard.managedFile(for: try Dashboard.target(body.target))
      try file.checkWritable()
      let (_, outcome) = try file.restore(body.id)
      return dashboard.reply(
        request, ["restored": body.id, "wrote": outcome.wrote ? "yes" : "no", "backup": outcome.backup?.id ?? ""],
        back: "/apply")
    }
  }
}
