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

  /// Adds a list by catalog id, or by http(s) URL with an optional key and format.
  func add(_ body: APIRequest.AddSource) throws -> SourceSummary {
    let new: NewSource
    if let id = body.catalog, !id.isEmpty {
      guard let entry = Catalog.builtIn.entry(id: id) else {
        throw DashboardError.notFound("No catalog list \"\(id)\": see GET /api/catalog for the ids.")
      }
      new = NewSource(entry)
    } else {
      new = try Self.parse(body)
    }
    do {
      _ = try URLPolicy.check(new.location)
    } catch {
      throw DashboardError.badRequest(
        [error.errorDescription, error.recoverySuggestion].compactMap { $0 }.joined(separator: " "))
    }
    let (source, _) = try store.addSource(new)
    let member = try store.sources().first { $0.source.key == source.key }
    return SourceSummary(member ?? ProfileSource(source: source, enabled: true))
  }

  /// The source a URL, key and format name.
  private static func parse(_ body: APIRequest.AddSource) throws -> NewSource {
    let text = (body.url ?? "").trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { throw DashboardError.badRequest("Give the list's URL (https://…) or a catalog id.") }
    let lowered = text.lowercased()
    guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
      throw DashboardError.badRequest(
        "\"\(text)\" is not an http(s) URL. The dashboard adds lists by URL or catalog id; add a local file with `sanehosts sources add PATH`."
      )
    }
    var parsed = try NewSource.parse(text)
    if let key = body.key, !key.isEmpty { parsed.key = key }
    if let format = body.format, !format.isEmpty {
      guard let listFormat = ListFormat(rawValue: format) else {
        throw DashboardError.badRequest(
          "Unknown format \"\(format)\": use one of \(ListFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
      }
      parsed.format = listFormat
    }
    return parsed
  }
}
