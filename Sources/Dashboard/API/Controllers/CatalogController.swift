import Catalog
import Hummingbird

/// `/api/catalog`: the built-in catalog of lists (categories, lists, presets).
struct CatalogController: Sendable {
  /// `GET /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(Catalog.builtIn) }
    return routes
  }
}
