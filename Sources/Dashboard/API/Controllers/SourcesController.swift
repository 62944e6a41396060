import Blocklists
import Catalog
import Downloads
import Foundation
import Hummingbird
import Store
import UseCases

/// `/api/sources`: the active profile's sources: adding (by URL or catalog id), removing, enabling,
/// accepting a held copy, a copy's diff.
struct SourcesController: Sendable {
  /// The store.
  let store: Store

  /// `GET /`, `POST /`, `POST /:key/remove`, `POST /:key/enabled`, `POST /:key/accept`, `GET /:key/diff`.
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get { _, _ in JSONResponse.make(try store.sources().map { SourceSummary($0) }) }
    routes.post { request, context in
      let body = try await request.decode(as: APIRequest.AddSource.self, context: context)
      return JSONResponse.reply(request, try add(body), status: .created, back: "/sources")
    }
    routes.post(":key/remove") { request, context in
      let key = try context.parameters.require("key")
      _ = try store.removeSource(key)
      return JSONResponse.reply(request, ["removed": key], back: "/sources")
    }
    routes.post(":key/enabled") { request, context in
      let key = try context.parameters.require("key")
      let enabled = try await request.decode(as: APIRequest.Enabled.self, context: context).enabled?.value ?? false
      try store.setEnabled(enabled, source: key)
      return JSONResponse.reply(request, ["key": key, "enabled": "\(enabled)"], back: "/sources")
    }
    routes.post(":key/accept") { request, context in
      let source = try await store.acceptHeldCopy(try context.parameters.require("key"))
      return JSONResponse.reply(request, ["key": source.key, "names": "\(source.unique ?? 0)"], back: "/sources")
    }
    routes.get(":key/diff") { request, context in try await difference(request, key: context.parameters.require("key"))
    }
    return routes
  }

  /// The names a source's last update added and removed, or what its held copy would change.
  private func difference(_ request: Request, key: String) async throws -> Response {
    let query = request.uri.queryParameters
    let held = query["held"].map { $0 == "1" || $0 == "true" } ?? false
    let limit =
      query["limit"].flatMap { Int($0) }.map { min(max(0, $0), JSONResponse.diffLimit) } ?? JSONResponse.diffLimit
    guard let difference = try await store.difference(of: key, held: held, limit: limit) else {
      return JSONResponse.make([
        "source": key,
        "message": held ? "There is no copy held back." : "There is only one copy so far: nothing to compare yet.",
      ])
    }
    return JSONResponse.make(difference)
  }

  /// Adds a list by catalog id, or by http(s) URL with an optional key and format (`SourceAddition`, as
  /// `sanehosts sources add` does); adding one that is there already changes nothing.
  func add(_ body: APIRequest.AddSource) throws -> SourceSummary {
    var addition: SourceAddition
    if let id = body.catalog, !id.isEmpty {
      guard Catalog.builtIn.entry(id: id) != nil else {
        throw DashboardError.notFound("No catalog list \"\(id)\": see GET /api/catalog for the ids.")
      }
      addition = SourceAddition(id)
    } else {
      addition = SourceAddition(body.url ?? "")
      addition.onlyURLs = true
      addition.name = body.key
      if let format = body.format, !format.isEmpty {
        guard let inputFormat = InputFormat(rawValue: format) else {
          throw DashboardError.badRequest(
            "Unknown format \"\(format)\": use one of \(InputFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        addition.format = inputFormat
      }
    }
    let key: String
    switch try addition.add(in: store) {
    case .added(let source): key = source.key
    case .alreadyThere(let existing, _): key = existing
    }
    guard let member = try store.sources().first(where: { $0.source.key == key }) else {
      throw DashboardError.notFound("The source \(key) is not in the active profile.")
    }
    return SourceSummary(member)
  }
}
