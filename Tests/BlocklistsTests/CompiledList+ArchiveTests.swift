import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("Compiled block set files")
struct CompiledListArchiveTests {
  static let rules: RuleSet = {
    var rules = RuleSet()
    rules.allow = (try? RuleSet.parse("keep.website\n", origin: "test")) ?? []
    rules.deny = (try? RuleSet.parse("=extra.website\n", origin: "test", deny: true)) ?? []
    return rules
  }()

  @Test("Read back, a list is the list written: names in order, removed ones, sources, reports, rendering")
  func roundTrip() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await compile(
      ["0.0.0.0 ads.website\n0.0.0.0 keep.website\n0.0.0.0 a.keep.website\n", "ads.website\ntracker.website\n"],
      rules: Self.rules)
    let path = directory.file("p.blockset").path
    try list.writeArchive(to: path, fingerprint: "fp1")
    #expect(CompiledList.archiveFingerprint(at: path) == "fp1")
    let read = try #require(CompiledList.readArchive(at: path, fingerprint: "fp1", rules: Self.rules))
    #expect(read.allNames == list.allNames)
    #expect(read.count == list.count && read.names.removedCount == list.names.removedCount)
    #expect(read.sources == list.sources)
    #expect(read.ruleReports == list.ruleReports)
    #expect(read.sources(listing: "ads.website") == ["list1", "list2"])
    #expect(read.sources(listing: "extra.website") == ["deny rules"])
    #expect(!read.blocks("keep.website") && read.blocks("tracker.website"))
    for format in [OutputFormat.hosts, .dnsmasq, .adblock] {
      #expect(try render(read, format) == render(list, format))
    }
  }

  @Test("A lean file of one source with a deny rule keeps the denied name's source: the rule, not the list")
  func leanKeepsRuleSource() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await compile(["0.0.0.0 ads.website\n"], rules: Self.rules)
    let path = directory.file("lean.blockset").path
    try list.writeArchive(to: path, fingerprint: "fp", withLookupTable: false)
    let read = try #require(CompiledList.readArchive(at: path, fingerprint: "fp", rules: Self.rules))
    #expect(read.sources(listing: "extra.website") == ["deny rules"])
    #expect(read.sources(listing: "ads.website") == ["list1"])
    // A list alone, without rules, is still written without its source bits.
    let alone = try await compile(["0.0.0.0 ads.website\n0.0.0.0 b.website\n"])
    try alone.writeArchive(to: directory.file("alone").path, fingerprint: "a", withLookupTable: false)
    try alone.writeArchive(to: directory.file("whole").path, fingerprint: "a", withLookupTable: true)
    let leanSize = try FileManager.default.attributesOfItem(atPath: directory.file("alone").path)[.size] as? Int
    let readAlone = try #require(
      CompiledList.readArchive(at: directory.file("alone").path, fingerprint: "a", rules: RuleSet()))
    #expect(readAlone.sources(listing: "b.website") == ["list1"])
    #expect((leanSize ?? 0) > 0)
  }

  @Test("More than 64 sources (two words of source bits per name) and an empty list survive the trip")
  func shapes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let many = try await compile((0..<70).map { "n\($0).website\nshared.website\n" })
    try many.writeArchive(to: directory.file("many").path, fingerprint: "f")
    let read = try #require(
      CompiledList.readArchive(at: directory.file("many").path, fingerprint: "f", rules: RuleSet()))
    #expect(read.sources(listing: "shared.website").count == 70)
    #expect(read.sources(listing: "n69.website") == ["list70"])
    let empty = try await compile([])
    try empty.writeArchive(to: directory.file("empty").path, fingerprint: "e")
    #expect(CompiledList.readArchive(at: directory.file("empty").path, fingerprint: "e", rules: RuleSet())?.count == 0)
  }

  @Test("Another fingerprint, a truncated or damaged file, or none at all reads as nil: the caller compiles again")
  func refused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await compile(["0.0.0.0 ads.website\n0.0.0.0 b.website\n"])
    let path = directory.file("p.blockset").path
    try list.writeArchive(to: path, fingerprint: "fp")
    #expect(CompiledList.readArchive(at: path, fingerprint: "other", rules: RuleSet()) == nil)
    #expect(CompiledList.readArchive(at: directory.file("missing").path, fingerprint: "fp", rules: RuleSet()) == nil)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    for cut in [0, 7, 20, bytes.count / 2, bytes.count - 8] {
      try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(CompiledList.readArchive(at: path, fingerprint: "fp", rules: RuleSet()) == nil, "cut at \(cut)")
    }
    var version = bytes
    version[8] = 99  // the format version
    try version.write(to: URL(fileURLWithPath: path))
    #expect(CompiledList.readArchive(at: path, fingerprint: "fp", rules: RuleSet()) == nil)
    #expect(CompiledList.archiveFingerprint(at: path) == nil)
    var counts = bytes
    // The entry count (the second of the seven counts after the metadata) no longer fits the name bytes.
    let metadataLength = Int(counts[16]) | Int(counts[17]) << 8
    let countsStart = 24 + metadataLength + (8 - metadataLength % 8) % 8
    counts[countsStart + 8] &+= 1
    try counts.write(to: URL(fileURLWithPath: path))
    #expect(CompiledList.readArchive(at: path, fingerprint: "fp", rules: RuleSet()) == nil)
    try Data("0.0.0.0 not.a.blockset\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(CompiledList.readArchive(at: path, fingerprint: "fp", rules: RuleSet()) == nil)
  }
}

@Suite("Lean block set files")
struct LeanArchiveTests {
  @Test("A one-source list written lean reads back the same, rebuilt table and all, and merges the same")
  func lean() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await compile(["0.0.0.0 a.website\n0.0.0.0 b.website\nc.website\n0.0.0.0 a.website\n"])
    let full = directory.file("full").path
    let lean = directory.file("lean").path
    try list.writeArchive(to: full, fingerprint: "f")
    try list.writeArchive(to: lean, fingerprint: "f", withLookupTable: false)
    let fullSize = try #require(try FileManager.default.attributesOfItem(atPath: full)[.size] as? Int)
    let leanSize = try #require(try FileManager.default.attributesOfItem(atPath: lean)[.size] as? Int)
    #expect(leanSize < fullSize)
    let read = try #require(CompiledList.readArchive(at: lean, fingerprint: "f", rules: RuleSet()))
    #expect(read.allNames == list.allNames && read.sources == list.sources)
    #expect(read.sources(listing: "b.website") == ["list1"] && !read.blocks("d.website"))
    var merging = Compiler.Merging(sourceCount: 2)
    let added = merging.add(archiveAt: lean, fingerprint: "f", name: "one")
    let refused = merging.add(archiveAt: lean, fingerprint: "other", name: "two")
    #expect(added && !refused)
    merging.add(list, name: "two")
    let merged = merging.finish()
    #expect(merged.allNames == list.allNames)
    #expect(merged.sources.map(\.unique) == [3, 0])
    #expect(merged.sources(listing: "c.website") == ["one", "two"])
  }

  @Test("A list of several sources is always written whole: lean would lose which source lists a name")
  func severalSources() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let list = try await compile(["a.website\n", "a.website\nb.website\n"])
    let path = directory.file("two").path
    try list.writeArchive(to: path, fingerprint: "f", withLookupTable: false)
    let read = try #require(CompiledList.readArchive(at: path, fingerprint: "f", rules: RuleSet()))
    #expect(read.sources(listing: "a.website") == ["list1", "list2"])
  }
}
