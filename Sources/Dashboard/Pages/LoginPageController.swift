import Hummingbird

/// Sign-in with the access token (`/login`, `login.mustache`), for a dashboard reached from another machine:
/// the token goes into an `HttpOnly`, `SameSite=Strict` cookie.
struct LoginPageController: Sendable {
  /// The access token (nil on loopback, where signing in is never needed).
  let token: String?
  /// The templates.
  let renderer: PageRenderer

  /// `GET /`, `POST /`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in renderer.page("login", title: "Sign in", section: "", model: Page(failed: false)) }
    routes.post { request, context in
      struct Login: Decodable { var token: String }
      let login = try await request.decode(as: Login.self, context: context)
      guard let token, AccessToken.matches(login.token, token) else {
        return renderer.page(
          "login", title: "Sign in", section: "", model: Page(failed: true), status: .unauthorized)
      }
      var response = Response(status: .seeOther, headers: [.location: "/"])
      response.setCookie(
        Cookie(
          name: AccessGuard<DashboardContext>.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
      return response
    }
    return routes
  }

  /// What `login.mustache` shows.
  struct Page {
    /// Whether the token given was wrong.
    var failed: Bool
  }
}
