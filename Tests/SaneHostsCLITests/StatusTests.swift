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

  @Test("Warnings: failed, never downloaded, stale, disabled-only, out of date")
  func warnings() {
    let now = Date()
    var failed = Source(key: "f", name: "f", location: "https://x.example/f")
    failed.status = .failed
    failed.message = "HTTP 500"
    failed.cacheFile = "lists/f"
    failed.lastSuccess = now.addingTimeInterval(-10 * 86_400)
    let fresh = Source(key: "n", name: "n", location: "https://x.example/n")
    let warnings = Status.warnings(
      members: [ProfileSource(source: failed, enabled: true), ProfileSource(source: fresh, enabled: true)],
      compiledNames: 10, current: false, staleDays: 7, now: now)
    #expect(warnings.contains("f failed: HTTP 500"))
    #expect(warnings.contains("n has never been downloaded: run `sanehosts update`."))
    #expect(warnings.contains("f is stale: last updated 10 days ago."))
    #expect(warnings.contains { $0.hasPrefix("Sources, rules or copies changed") })
    let disabled = Status.warnings(
      members: [ProfileSource(source: fresh, enabled: false)], compiledNames: nil, current: false, staleDays: 7)
    #expect(disabled == ["Every source is disabled: enable one with `sanehosts sources enable NAME`."])
  }
}
