import Catalog
import Hummingbird
import Store

/// `/api/presets`: adding a preset's lists of the catalog to the active profile.
struct PresetsController: Sendable {
  /// The store.
  let store: Store

  /// `POST /:id`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.post(":id") { request, context in
      let id = try context.parameters.require("id")
      guard let preset = Catalog.builtIn.preset(id: id) else {
        throw DashboardError.notFound(
          "No preset \"\(id)\": use one of \(Catalog.builtIn.presets.map(\.id).joined(separator: ", ")).")
      }
      var added: [String] = []
      for entry in Catalog.builtIn.entries(of: preset) {
        let result = try store.addSource(NewSource(entry))
        if result.isNew { added.append(result.source.key) }
      }
      return JSONResponse.reply(request, ["added": added], status: .created, back: "/sources")
    }
    return routes
  }
}
