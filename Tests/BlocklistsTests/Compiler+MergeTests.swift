import Blocklists
import Foundation
import Testing

@Suite("Merging lists compiled alone")
struct CompilerMergeTests {
  static let texts = [
    "0.0.0.0 ads.example\n0.0.0.0 keep.example\n0.0.0.0 ads.example\nbad_name!\n",
    "ads.example\ntracker.example\n||cdn.tracker.example^\n",
    "*.wild.example\nkeep.example\nsub.keep.example\n",
  ]

  @Test("Merged, lists compiled one source each give what compiling the sources together gives")
  func sameAsTogether() async throws {
    var rules = RuleSet()
    rules.allow = try RuleSet.parse("keep.example\n", origin: "test")
    rules.deny = try RuleSet.parse("=extra.example\n", origin: "test", deny: true)
    let together = try await compile(Self.texts, rules: rules)
    var merging = Compiler.Merging(sourceCount: Self.texts.count)
    for (index, text) in Self.texts.enumerated() {
      merging.add(try await compile([text]), name: "list\(index + 1)")
    }
    let merged = merging.finish(rules: rules)
    #expect(merged.allNames == together.allNames)
    #expect(merged.sources == together.sources)
    #expect(merged.ruleReports == together.ruleReports)
    #expect(merged.sources(listing: "ads.example") == together.sources(listing: "ads.example"))
    for format in [ListFormat.hosts, .adblock, .rpz] {
      #expect(try render(merged, format) == render(together, format))
    }
  }

  @Test("The real shared lists merge to the same profile as one compile", .enabled(if: sharedData != nil))
  func sharedLists() async throws {
    let folder = try #require(sharedData).appendingPathComponent("blocklists")
    let files = ["stevenblack.domains.txt", "easylist.adblock.txt", "hagezi-light.wildcard.txt"]
      .map { folder.appendingPathComponent($0).path }
    let together = try await Compiler().compile(files.map { ListSource.file($0) })
    var merging = Compiler.Merging(sourceCount: files.count)
    for file in files { merging.add(try await Compiler().compile([.file(file)]), name: file) }
    let merged = merging.finish()
    #expect(merged.count == together.count)
    #expect(merged.allNames == together.allNames)
    #expect(merged.sources.map(\.unique) == together.sources.map(\.unique))
  }
}
