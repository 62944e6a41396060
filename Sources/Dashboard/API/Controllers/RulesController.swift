import Foundation
import Hummingbird
import Store
import UseCases

/// `/api/rules`: the active profile's allow and deny rules.
struct RulesController: Sendable {
  /// The store.
  let store: Store

  /// `GET /`, `POST /`, `POST /remove`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(try store.rules()) }
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.Rule.self, context: context)
      let rule = try store.addRule(
        body.pattern, action: try Self.action(body.kind), expiresAt: try Self.end(body.for, now: Date()))
      return JSONResponse.reply(request, rule, status: .created, back: Self.localPage(body.back) ?? "/sources")
    }
    routes.post("remove") { request, context in
      let body = try await request.decode(as: APIRequest.Rule.self, context: context)
      try store.removeRule(body.pattern, action: try Self.action(body.kind))
      return JSONResponse.reply(request, ["removed": body.pattern], back: "/sources")
    }
    return routes
  }

  /// A rule kind by name: allow or deny.
  static func action(_ kind: String) throws(DashboardError) -> ProfileRule.Action {
    guard let action = ProfileRule.Action(rawValue: kind.lowercased()) else {
      throw .badRequest("Unknown rule kind \"\(kind)\": use allow or deny.")
    }
    return action
  }

  /// When a rule given `for` a duration ends; nil for always.
  static func end(_ duration: String?, now: Date) throws(DashboardError) -> Date? {
    guard let duration, !duration.isEmpty else { return nil }
    do {
      return now.addingTimeInterval(try RuleEnd.seconds(duration))
    } catch {
      throw .badRequest(error.errorDescription ?? duration)
    }
  }

  /// A page of this dashboard a form names to go back to (`/traffic`): a path, never another site.
  static func localPage(_ back: String?) -> String? {
    guard let back, back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\") else { return nil }
    return back
  }
}
