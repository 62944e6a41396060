import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import Dashboard

@Suite("JSON responses")
struct JSONResponseTests {
  @Test("JSON with its type and no caching; a plain form gets a redirect back instead")
  func reply() async throws {
    let json = JSONResponse.make(["a": 1], status: .created)
    #expect(json.status == .created)
    #expect(json.headers[.contentType] == "application/json; charset=utf-8")
    #expect(json.headers[.cacheControl] == "no-store")
    var head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/api/rules")
    head.headerFields[.contentType] = "application/x-www-form-urlencoded"
    let form = JSONResponse.reply(Request(head: head, body: .init(buffer: .init())), ["a": 1], back: "/sources")
    #expect(form.status == .seeOther && form.headers[.location] == "/sources")
    head.headerFields[.contentType] = "application/json"
    let api = JSONResponse.reply(Request(head: head, body: .init(buffer: .init())), ["a": 1], back: "/sources")
    #expect(api.status == .ok && api.headers[.location] == nil)
  }
}
