import BlockerTest
import Foundation
import Testing

@Suite("The registry")
struct RegistryTests {
  @Test("The built-in registry holds the 128 reference domains in 6 categories and 30 providers, plus controls")
  func builtIn() throws {
    let registry = Registry.builtIn
    #expect(registry.tested.count == 128)
    #expect(Set(registry.categories) == ["Ads", "Analytics", "Error Trackers", "Social Trackers", "Mix", "OEMs"])
    #expect(registry.providers.count == 30)
    #expect(registry.controls.map(\.hostname) == ["example.com", "wikipedia.org", "debian.org"])
  }

  /// The reference list in ../shared, when it is beside the project.
  static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appending(
      path: "shared/data/test-domains/adornot-registry.tsv")

  @Test(
    "Every line of the shared reference list is in the registry, unchanged",
    .enabled(
      if: FileManager.default.fileExists(atPath: reference.path),
      "needs ../shared/data/test-domains beside the project (a plain clone has none)"))
  func matchesReference() throws {
    let registry = Registry.builtIn
    let text = try String(contentsOf: Self.reference, encoding: .utf8)
    let lines = text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
    #expect(lines.count == 128)
    for fields in lines {
      #expect(registry.domains.contains(TestDomain(hostname: fields[2], category: fields[0], provider: fields[1])))
    }
  }

  @Test("Parsing refuses malformed lines and bad names, with the line number")
  func parsing() throws {
    #expect(throws: RegistryError.malformedLine(line: 2, text: "Ads only-two")) {
      try Registry(tsv: "# comment\nAds only-two\n")
    }
    #expect(throws: RegistryError.invalidHostname("not a name")) { try Registry(tsv: "Ads\tX\tnot a name\n") }
    let parsed = try Registry(tsv: "Ads\tX\tAds.Website.\nAds\tY\tads.website\n", custom: true)
    #expect(parsed.domains == [TestDomain(hostname: "ads.website", category: "Ads", provider: "X", isCustom: true)])
    #expect(try Registry.normalize("bücher.website") == "xn--bcher-kva.website")
  }

  @Test("Filtering by category keeps the controls; a sample is deterministic for a seed")
  func filterAndSample() {
    let filtered = Registry.builtIn.filtered(categories: ["ads"])
    #expect(filtered.tested.count == 19 && filtered.controls.count == 3)
    let names = (0..<1000).map { "n\($0).website" }
    let sample = Registry.sample(names, count: 10, seed: 42)
    #expect(sample.count == 10 && Set(sample).count == 10)
    #expect(Registry.sample(names.shuffled(), count: 10, seed: 42) == sample)
    #expect(Registry.sample(names, count: 10, seed: 43) != sample)
    #expect(Registry.sample(["a.website"], count: 10, seed: 1) == ["a.website"])
  }
}
