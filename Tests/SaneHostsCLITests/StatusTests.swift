import Foundation
import Store
import TestSupport
import Testing

@testable import SaneHostsCLI

@Suite("sanehosts status")
struct StatusTests {
  @Test("A fresh store: the default profile, no sources, and a warning saying what to do")
  func fresh() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let text = try await cli.ok("status")
    #expect(text.contains("Profile: default (active)"))
    #expect(text.contains("Last update: never"))
    #expect(text.contains("sanehosts sources add"))
    let json = try #require(try await cli.json("status", "--json") as? [String: Any])
    #expect(json["dataDirectory"] as? String == cli.dataDirectory.path)
    #expect((json["warnings"] as? [String])?.count == 1)
  }
}
