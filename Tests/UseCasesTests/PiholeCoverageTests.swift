import BlockerTest
import Foundation
import Pihole
import Testing
import UseCases

@Suite("Which of a Pi-hole's lists block each domain")
struct PiholeCoverageTests {
  @Test(
    "Per list the domains it blocks, most first; a deny rule counts, an allow rule is named; nothing blocks the rest")
  func coverage() throws {
    let json = """
      {
        "a.example": {"domains": [], "gravity": [
          {"address": "https://lists.example/one", "entry": "a.example", "type": "block"},
          {"address": "https://lists.example/two", "entry": "a.example", "type": "block"}]},
        "b.example": {"domains": [], "gravity": [
          {"address": "https://lists.example/one", "entry": "b.example", "type": "block"},
          {"address": "https://lists.example/allow", "entry": "b.example", "type": "allow"}]},
        "c.example": {"domains": [{"domain": "c.example", "type": "deny", "kind": "exact", "enabled": true, "id": 1}],
          "gravity": []},
        "d.example": {"domains": [{"domain": "d.example", "type": "allow", "kind": "exact", "enabled": true, "id": 2}],
          "gravity": []},
        "e.example": {"domains": [{"domain": "e.example", "type": "deny", "kind": "exact", "enabled": false, "id": 3}],
          "gravity": []}
      }
      """
    let searches = try JSONDecoder().decode([String: PiholeSearch].self, from: Data(json.utf8))
    let names = ["a.example", "b.example", "c.example", "d.example", "e.example", "unasked.example"]
    let coverage = PiholeCoverage.coverage(of: names, searches: searches)
    #expect(
      coverage.sources.map(\.name) == [
        "https://lists.example/one", "deny exact: c.example", "https://lists.example/two",
      ])
    #expect(coverage.sources.first?.domains == ["a.example", "b.example"])
    #expect(coverage.uncovered == ["d.example", "e.example"])
    #expect(coverage.allowed == ["d.example"])
  }
}
