import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Dashboard

@Suite("/static: the stylesheet and the script")
struct AssetsControllerTests {
  @Test("Each with its type and the pages' security headers, byte for byte what the binary holds")
  func assets() async throws {
    let routes = try mountedRoutes(AssetsController().routes, at: "/static")
    #expect(routes == ["GET /static/app.js", "GET /static/style.css"])
    try await DashboardHarness.with { harness in
      try await harness.routes { client async throws in
        let script = try await client.get("/static/app.js")
        #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
        #expect(script.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
        #expect(script.text == Assets.javascript)
        #expect(try await client.get("/static/style.css").text == Assets.css)
      }
    }
  }
}
