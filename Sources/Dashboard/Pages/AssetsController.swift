import Hummingbird
import NIOCore

/// `/static`: the stylesheet and the script (`Assets`), with the pages' security headers.
struct AssetsController: Sendable {
  /// `GET /style.css`, `GET /app.js`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get("style.css") { _, _ in Self.asset(Assets.css, type: "text/css; charset=utf-8") }
    routes.get("app.js") { _, _ in Self.asset(Assets.javascript, type: "text/javascript; charset=utf-8") }
    return routes
  }

  private static func asset(_ text: String, type: String) -> Response {
    Response(
      status: .ok, headers: PageRenderer.securityHeaders(type: type), body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
