import Foundation
import HTTPTypes
import Hummingbird

/// Decides who may use the dashboard: the Host check, the access token, and CSRF protection.
///
/// - On loopback, the `Host` header must name this machine (127.0.0.0/8, `localhost`, `[::1]`), so a web
///   page on another site cannot reach the dashboard through DNS rebinding.
/// - Off loopback, every request needs the access token: `Authorization: Bearer TOKEN`, the cookie set
///   by `/login`, or, for the list subscriptions only, `?token=TOKEN` (a Pi-hole cannot send headers).
/// - Every state-changing request (anything but GET and HEAD) must be same-origin: a cross-site
///   `Sec-Fetch-Site` or a foreign `Origin` is refused, and it must carry the bearer token or the page's
///   CSRF token (`X-CSRF-Token` header, or a `csrf` form field).
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
  /// The cookie `/login` sets.
  static var cookieName: String { "sanehosts_token" }

  /// The token off loopback (nil on loopback).
  let token: String?
  /// The CSRF token embedded in every page of this server run.
  let csrf: String
  /// Whether the server only listens on loopback.
  let loopback: Bool
  /// Renders the refusal for a browser.
  let renderer: PageRenderer

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    var request = request
    if loopback, let host = request.head.authority,
      !DashboardConfiguration.isLoopback(Self.hostPart(host))
    {
      return refuse(
        .misdirectedRequest, "This dashboard only answers to 127.0.0.1 or localhost, not \(host).", request)
    }
    let path = request.uri.path
    let bearer = Self.bearer(request)
    if let token {
      let cookie = request.cookies[Self.cookieName]?.value
      let query = path.hasPrefix("/lists/") ? request.uri.queryParameters["token"].map(String.init) : nil
      let presented = bearer ?? cookie ?? query
      let isLogin = path == "/login" || path == "/static/style.css"
      if !isLogin && !(presented.map { AccessToken.matches($0, token) } ?? false) {
        if request.method == .get && request.wantsHTML {
          return Response(status: .seeOther, headers: [.location: "/login"])
        }
        return refuse(
          .unauthorized, "This dashboard needs its access token (Authorization: Bearer TOKEN, or sign in at /login).",
          request)
      }
    }
    if request.method != .get && request.method != .head {
      // A body larger than any form or API request takes is refused before a byte of it is read.
      if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > context.maxUploadSize {
        return refuse(
          .contentTooLarge,
          "A request body of \(length) bytes is larger than the dashboard takes (\(context.maxUploadSize)).", request)
      }
      if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site == "cross-site" || site == "same-site" {
        return refuse(.forbidden, "Cross-site requests may not change anything.", request)
      }
      if let origin = request.headers[.origin], !Self.sameOrigin(origin, request) {
        return refuse(.forbidden, "Requests from \(origin) may not change anything here.", request)
      }
      let bearerValid = token.map { t in bearer.map { AccessToken.matches($0, t) } ?? false } ?? false
      if !bearerValid && path != "/login" {
        var presented = request.headers[HTTPField.Name("X-CSRF-Token")!]
        if presented == nil && request.isForm {
          let body = try await request.collectBody(upTo: context.maxUploadSize)
          presented = Self.formField("csrf", in: String(buffer: body))
        }
        guard let presented, AccessToken.matches(presented, csrf) else {
          return refuse(
            .forbidden, "Missing or wrong CSRF token: reload the page and try again (scripts: send the bearer token).",
            request)
        }
      }
    }
    return try await next(request, context)
  }

  /// The host of a `Host` header, without its port.
  static func hostPart(_ host: String) -> String {
    if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
    if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon { return String(host[..<colon]) }
    return host
  }

  /// Whether an `Origin` header names the host the request was sent to.
  static func sameOrigin(_ origin: String, _ request: Request) -> Bool {
    guard let host = request.head.authority, let url = URL(string: origin),
      let originHost = url.host
    else { return false }
    let port = url.port.map { ":\($0)" } ?? ""
    let bracketed = originHost.contains(":") && !originHost.hasPrefix("[") ? "[\(originHost)]" : originHost
    return "\(bracketed)\(port)".lowercased() == host.lowercased()
  }

  /// The token of an `Authorization: Bearer` header.
  static func bearer(_ request: Request) -> String? {
    guard let value = request.headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
    return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
  }

  /// One field of a URL-encoded form.
  static func formField(_ name: String, in body: String) -> String? {
    for pair in body.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.first == name {
        return (parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
      }
    }
    return nil
  }

  /// A refusal: JSON, or a page for a browser.
  /// The refusal; for a request that may carry a body, with `Connection: close`, so the connection ends
  /// with it and the body is never read (`RequestLimits`).
  func refuse(_ status: HTTPResponse.Status, _ message: String, _ request: Request) -> Response {
    var response = ErrorPayload(error: message, suggestion: nil).response(
      status: status, for: request, renderer: renderer)
    if request.method != .get && request.method != .head { response.headers[.connection] = "close" }
    return response
  }
}
