import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("Merging lists compiled alone")
struct CompilerMergeTests {
  static let texts = [
    "0.0.0.0 ads.website\n0.0.0.0 keep.website\n0.0.0.0 ads.website\nbad_name!\n",
    "ads.website\ntracker.website\n||cdn.tracker.website^\n",
    "*.wild.website\nkeep.website\nsub.keep.website\n",
  ]

  /// An allow rule and a deny rule, so that merges are compared with rules applied.
  static func rules() throws -> RuleSet {
    var rules = RuleSet()
    rules.allow = try RuleSet.parse("keep.website\n", origin: "test")
    rules.deny = try RuleSet.parse("=extra.website\n", origin: "test", deny: true)
    return rules
  }

  @Test("Merged, lists compiled one source each give what compiling the sources together gives")
  func sameAsTogether() async throws {
    let rules = try Self.rules()
    let together = try await compile(Self.texts, rules: rules)
    var merging = Compiler.Merging(sourceCount: Self.texts.count)
    for (index, text) in Self.texts.enumerated() {
      merging.add(try await compile([text]), name: "list\(index + 1)")
    }
    let merged = merging.finish(rules: rules)
    #expect(merged.allNames == together.allNames)
    #expect(merged.sources == together.sources)
    #expect(merged.ruleReports == together.ruleReports)
    #expect(merged.sources(listing: "ads.website") == together.sources(listing: "ads.website"))
    for format in [OutputFormat.hosts, .adblock, .rpz] {
      #expect(try render(merged, format) == render(together, format))
    }
  }

  @Test(
    "Merged as parsed, each name inserted once, the sources give what compiling them together gives; each source's own names are what compiling it alone gives"
  )
  func parsedSameAsTogether() async throws {
    let rules = try Self.rules()
    let together = try await compile(Self.texts, rules: rules)
    var merging = Compiler.Merging(sourceCount: Self.texts.count)
    for (index, text) in Self.texts.enumerated() {
      // Small blocks: a source's names come in several, and repeats cross them.
      let parsed = try await Compiler(blockSize: 16).parse(.text(text, name: "list\(index + 1)"))
      let own = merging.add(parsed, name: "list\(index + 1)")
      let alone = try await Compiler().compile([.text(text, name: "list\(index + 1)")])
      #expect(own.names == alone.allNames)
      #expect(own.report == alone.sources[0], "the source's own counts: \(index)")
    }
    let merged = merging.finish(rules: rules)
    #expect(merged.allNames == together.allNames)
    #expect(merged.sources == together.sources)
    #expect(merged.ruleReports == together.ruleReports)
    for name in ["ads.website", "keep.website", "tracker.website", "extra.website"] {
      #expect(merged.sources(listing: name) == together.sources(listing: name), "\(name)")
    }
    for format in [OutputFormat.hosts, .adblock, .rpz] {
      #expect(try render(merged, format) == render(together, format))
    }
  }

  @Test("Merged as parsed or from files, a mix of sources gives the same profile")
  func parsedAndFilesMix() async throws {
    try await TemporaryDirectory.with { folder in
      let together = try await compile(Self.texts)
      var merging = Compiler.Merging(sourceCount: Self.texts.count)
      for (index, text) in Self.texts.enumerated() {
        let name = "list\(index + 1)"
        if index == 1 {
          let path = folder.file("\(index).blockset").path
          try await compile([text]).writeArchive(to: path, fingerprint: "f", withLookupTable: false)
          let added = merging.add(archiveAt: path, fingerprint: "f", name: name)
          #expect(added)
        } else {
          _ = merging.add(try await Compiler().parse(.text(text, name: name)), name: name)
        }
      }
      let merged = merging.finish()
      #expect(merged.allNames == together.allNames)
      #expect(merged.sources == together.sources)
    }
  }

  @Test("More than 64 sources: each source's repeats are told from other sources' names by its own bit")
  func manySources() async throws {
    let texts = (0..<70).map { index in "shared.website\nown\(index).website\nshared.website\nown\(index).website\n" }
    var merging = Compiler.Merging(sourceCount: texts.count)
    for (index, text) in texts.enumerated() {
      let own = merging.add(try await Compiler().parse(.text(text, name: "s\(index)")), name: "s\(index)")
      #expect(own.names == ["shared.website", "own\(index).website"])
      #expect(own.report.unique == 2)
      #expect(own.report.duplicates == 2)
    }
    let merged = merging.finish()
    #expect(merged.count == 71)
    #expect(merged.sources(listing: "shared.website").count == 70)
    #expect(merged.sources.map(\.unique) == [2] + Array(repeating: 1, count: 69))
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

    var parsedMerging = Compiler.Merging(sourceCount: files.count)
    for file in files {
      let own = parsedMerging.add(try await Compiler().parse(.file(file)), name: file)
      #expect(own.names == (try await Compiler().compile([.file(file)])).allNames, "\(file)")
    }
    let parsedMerged = parsedMerging.finish()
    #expect(parsedMerged.allNames == together.allNames)
    #expect(parsedMerged.sources.map(\.unique) == together.sources.map(\.unique))
  }
}
