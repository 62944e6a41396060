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
        "a.website": {"domains": [], "gravity": [
          {"address": "https://lists.website/one", "entry": "a.website", "type": "block"},
          {"address": "https://lists.website/two", "entry": "a.website", "type": "block"}]},
        "b.website": {"domains": [], "gravity": [
          {"address": "https://lists.website/one", "entry": "b.website", "type": "block"},
          {"address": "https://lists.website/allow", "entry": "b.website", "type": "allow"}]},
        "c.website": {"domains": [{"domain": "c.website", "type": "deny", "kind": "exact", "enabled": true, "id": 1}],
          "gravity": []},
        "d.website": {"domains": [{"domain": "d.website", "type": "allow", "kind": "exact", "enabled": true, "id": 2}],
          "gravity": []},
        "e.website": {"domains": [{"domain": "e.website", "type": "deny", "kind": "exact", "enabled": false, "id": 3}],
          "gravity": []}
      }
      """
    let searches = try JSONDecoder().decode([String: PiholeSearch].self, from: Data(json.utf8))
    let names = ["a.website", "b.website", "c.website", "d.website", "e.website", "unasked.website"]
    let coverage = PiholeCoverage.coverage(of: names, searches: searches)
    #expect(
      coverage.sources.map(\.name) == [
        "https://lists.website/one", "deny exact: c.website", "https://lists.website/two",
      ])
    #expect(coverage.sources.first?.domains == ["a.website", "b.website"])
    #expect(coverage.uncovered == ["d.website", "e.website"])
    #expect(coverage.allowed == ["d.website"])
  }
}
