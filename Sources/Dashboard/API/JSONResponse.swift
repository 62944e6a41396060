import Files
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON responses with ISO 8601 dates and sorted keys.
enum JSONResponse {
  /// The longest diff the API returns (the rest is counted).
  static var diffLimit: Int { 2000 }

  /// `value` as JSON.
  static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    let data = (try? JSONCoding.encode(value)) ?? Data("{}".utf8)
    return Response(
      status: status,
      headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  /// The JSON answer, or for a plain HTML form a redirect back to its page.
  static func reply(_ request: Request, _ value: some Encodable, status: HTTPResponse.Status = .ok, back: String)
    -> Response
  {
    if request.isForm { return Response(status: .seeOther, headers: [.location: back]) }
    return make(value, status: status)
  }
}
