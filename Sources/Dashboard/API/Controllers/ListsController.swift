import Downloads
import Foundation
import Hummingbird
import NIOCore

/// `/lists`: each profile's compiled list for subscribers (a Pi-hole's adlists), with an ETag.
struct ListsController: Sendable {
  /// The lists, rendered once per change.
  let lists: ListCache

  /// `GET /:file`, `HEAD /:file` (`PROFILE.hosts`, `.txt`, `.adblock`).
  var routes: RouteCollection<DashboardContext> {
    let routes = RouteCollection(context: DashboardContext.self)
    routes.get(":file") { request, context in try await list(request, file: context.parameters.require("file")) }
    routes.head(":file") { request, context in try await list(request, file: context.parameters.require("file")) }
    return routes
  }

  private func list(_ request: Request, file: String) async throws -> Response {
    let dot = file.lastIndex(of: ".") ?? file.endIndex
    let name = String(file[..<dot])
    let suffix = dot < file.endIndex ? String(file[file.index(after: dot)...]) : ""
    guard let format = ListCache.Format.allCases.first(where: { $0.fileExtension == suffix }) else {
      throw DashboardError.notFound(
        "No list \"\(file)\": use PROFILE.hosts, PROFILE.txt (one name per line) or PROFILE.adblock.")
    }
    let list = try await lists.list(profile: name, format: format)
    var headers: HTTPFields = [
      .eTag: list.etag, .cacheControl: "no-cache", .lastModified: HTTPDate.string(from: list.modified),
    ]
    if let match = request.headers[.ifNoneMatch],
      match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == list.etag || $0 == "*" })
    {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = "text/plain; charset=utf-8"
    headers[.contentLength] = "\(list.body.count)"
    if request.method == .head { return Response(status: .ok, headers: headers) }
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: list.body)))
  }
}
