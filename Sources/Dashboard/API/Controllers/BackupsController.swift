import Hummingbird

/// `/api/backups`: the backups of a target's file.
struct BackupsController: Sendable {
  /// The files the targets write.
  let applier: ApplyService

  /// `GET /?target=T`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { request, _ in
      let target = try ApplyService.target(request.uri.queryParameters["target"].map(String.init))
      return JSONResponse.make(applier.backups(of: target))
    }
    return routes
  }
}
