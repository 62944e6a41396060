import Foundation
import TestSupport
import Testing

@Suite("sanehosts catalog")
struct CatalogCommandTests {
  @Test("Lists the catalog by category, filters by category, prints presets and JSON")
  func browse() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let all = try await cli.ok("catalog")
    #expect(all.contains("Multipurpose (multipurpose)"))
    #expect(all.contains("stevenblack-unified"))
    #expect(all.contains("49 lists"))

    let malware = try await cli.ok("catalog", "--category", "malware")
    #expect(malware.contains("urlhaus-hostfile"))
    #expect(!malware.contains("stevenblack-unified"))

    let presets = try await cli.ok("catalog", "--presets")
    for id in ["essentials", "family-safe", "focus-mode", "privacy-shield", "kitchen-sink"] {
      #expect(presets.contains(id))
    }

    let entries = try #require(try await cli.json("catalog", "--json", "--category", "ads") as? [[String: Any]])
    #expect(entries.count >= 5)
    #expect(
      entries.allSatisfy {
        ($0["category"] as? String) == "ads" && ($0["url"] as? String)?.hasPrefix("https://") == true
      })
  }

  @Test("An unknown category is refused with the list of categories")
  func unknownCategory() async throws {
    let cli = try StoreCLI()
    defer { cli.remove() }
    let result = try await cli.run("catalog", "--category", "nope")
    #expect(result.status == 64)
    #expect(result.standardError.contains("There is no category “nope”"))
    #expect(result.standardError.contains("multipurpose"))
  }
}
