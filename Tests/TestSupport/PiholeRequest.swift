import NIOHTTP1

/// A request as the Pi-hole double's routes see it.
struct PiholeRequest: Sendable {
  var method: String
  /// The request target's path, still percent-encoded.
  var path: String
  /// Query parameters, form-decoded (`+` becomes a space, as in CivetWeb).
  var query: [String: String]
  var headers: HTTPHeaders
  var body: [UInt8]

  /// The first value of a header, case-insensitive.
  func header(_ name: String) -> String? { headers.first(name: name) }
}
