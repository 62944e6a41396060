import Catalog
import Hummingbird
import Store
import UseCases

/// `/api/sources…`: the sources, adding, removing, enabling, accepting a held copy, a copy's diff; `/api/catalog` and `/api/presets/:id`.
struct SourcesController {
  let dashboard: Dashboard

  func addRoutes(to group: RouterGroup<DashboardContext>) {
    let dashboard = self.dashboard
    group.get("sources") { _, _ in JSONResponse.make(try dashboard.store.sources().map { SourceSummary($0) }) }
    group.post("sources") { request, context in
      let body = try await request.decode(as: APIRequest.AddSource.self, context: context)
      let view = try dashboard.addSource(body)
      return dashboard.reply(request, view, status: .created, back: "/sources")
    }
    group.post("sources/:key/remove") { request, context in
      let key = try context.parameters.require("key")
      _ = try dashboard.store.removeSource(key)
      return dashboard.reply(request, ["removed": key], back: "/sources")
    }
    group.post("sources/:key/enabled") { request, context in
      let key = try context.parameters.require("key")
      let body = try await request.decode(as: APIRequest.Enabled.self, context: context)
      try dashboard.store.setEnabled(body.enabled?.value ?? false, source: key)
      return dashboard.reply(request, ["key": key, "enabled": "\(body.enabled?.value ?? false)"], back: "/sources")
    }
    group.post("sources/:key/accept") { request, context in
      let key = try context.parameters.require("key")
      let source = try await dashboard.store.acceptHeldCopy(key)
      return dashboard.reply(request, ["key": source.key, "names": "\(source.unique ?? 0)"], back: "/sources")
    }
    group.get("sources/:key/diff") { request, context in
      let key = try context.parameters.require("key")
      let query = request.uri.queryParameters
      let held = query["held"].map { $0 == "1" || $0 == "true" } ?? false
      let limit = query["limit"].flatMap { Int($0) }.map { min(max(0, $0), Dashboard.diffLimit) } ?? Dashboard.diffLimit
      guard let difference = try await dashboard.store.difference(of: key, held: held, limit: limit) else {
        return JSONResponse.make([
          "source": key,
          "message": held ? "There is no copy held back." : "There is only one copy so far: nothing to compare yet.",
        ])
      }
      return JSONResponse.make(difference)
    }
    group.get("catalog") { _, _ in JSONResponse.make(Catalog.builtIn) }
    group.post("presets/:id") { request, context in
      let id = try context.parameters.require("id")
      guard let preset = Catalog.builtIn.preset(id: id) else {
        throw DashboardError.notFound(
          "No preset \"\(id)\": use one of \(Catalog.builtIn.presets.map(\.id).joined(separator: ", ")).")
      }
      var added: [String] = []
      for entry in Catalog.builtIn.entries(of: preset) {
        let result = try dashboard.store.addSource(NewSource(entry))
        if result.isNew { added.append(result.source.key) }
      }
      return dashboard.reply(request, ["added": added], status: .created, back: "/sources")
    }
  }
}
