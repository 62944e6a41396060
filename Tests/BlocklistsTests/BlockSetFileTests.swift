import Files
import Foundation
import TestSupport
import Testing

@testable import Blocklists

@Suite("Looking names up in a block set file without loading it")
struct BlockSetFileTests {
  @Test("Names are found by their hashes, with their lines; others are not; a removed entry says so")
  func lookups() async throws {
    try await TemporaryDirectory.with { folder in
      let text = "# list\n0.0.0.0 a.website b.website\n||c.website^\n\nd.website\n0.0.0.0 a.website\n"
      var compiler = Compiler()
      compiler.recordsOrigins = true
      let list = try await compiler.compile([.text(text, name: "s")])
      let path = folder.file("s.blockset").path
      try list.writeArchive(to: path, fingerprint: "fp", withLookupTable: false)
      #expect(BlockSetFile(path: path, fingerprint: "other") == nil)
      let file = try #require(BlockSetFile(path: path, fingerprint: "fp"))
      #expect(file.hasOrigins)
      #expect(file.entries == 4)
      let found = file.entries(of: ["d.website", "x.website", "a.website", "c.website", "example"])
      #expect(found == [3, nil, 0, 2, nil])
      #expect(file.name(3) == "d.website")
      // The offset is the line's start in the source; the checkpoint before it, the first line.
      let offset = try #require(file.origin(2)?.offset)
      #expect(Array(text.utf8)[offset..<(offset + 12)].elementsEqual("||c.website^".utf8))
      #expect(file.origin(3)?.checkpoint.offset == 0 && file.origin(3)?.checkpoint.line == 1)
      #expect(file.report?.name == "s")

      // A profile's file (allow rule applied, no origins): found by hashing, removed entries marked.
      let ruled = try await Compiler().compile(
        [.text(text, name: "s")], rules: RuleSet(allow: [.init(kind: .exact, pattern: "b.website", origin: "t")]))
      try ruled.writeArchive(to: path, fingerprint: "fp2", withLookupTable: false)
      let profile = try #require(BlockSetFile(path: path, fingerprint: "fp2"))
      #expect(!profile.hasOrigins)
      #expect(profile.entries(of: ["b.website", "a.website"]) == [1, 0])
      #expect(profile.isRemoved(1))
      #expect(!profile.isRemoved(0))
      #expect(profile.origin(0) == nil)
    }
  }

  @Test("A damaged or truncated file is refused, never read out of bounds")
  func damaged() async throws {
    try await TemporaryDirectory.with { folder in
      var compiler = Compiler()
      compiler.recordsOrigins = true
      let list = try await compiler.compile([.text("a.website\nb.website\n")])
      let path = folder.file("s.blockset").path
      try list.writeArchive(to: path, fingerprint: "fp", withLookupTable: false)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      for cut in stride(from: 0, to: bytes.count, by: 7) {
        try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
        #expect(BlockSetFile(path: path, fingerprint: "fp") == nil, "cut at \(cut)")
      }
    }
  }

  @Test("Ends that go back (a damaged file whose last end still fits) are refused: no read past the names")
  func decreasingEnds() async throws {
    try await TemporaryDirectory.with { folder in
      let path = folder.file("bad.blockset").path
      let parts = NameSet.Parts(
        bytes: Array("abc".utf8), ends: [0xFFFF_FF00, 3], slots: [], sourceBits: [], removedBits: [], wordsPerEntry: 1,
        removedCount: 0)
      var origins = Origins()
      origins.append(hash: Array("abc".utf8).withUnsafeBufferPointer { NameHash.hash($0) }, offset: 0)
      origins.append(hash: 0, offset: 4)
      origins.checkpoints = [0, 1]
      try CompiledList.writeArchive(
        parts, origins: origins, metadata: .init(fingerprint: "fp", sources: [], ruleReports: []), to: path,
        durability: .immediate)
      #expect(BlockSetFile(path: path, fingerprint: "fp") == nil)
      #expect(CompiledList.readArchive(at: path, fingerprint: "fp", rules: RuleSet()) == nil)
    }
  }

  @Test("Entries out of range read as nothing")
  func outOfRange() async throws {
    try await TemporaryDirectory.with { folder in
      var compiler = Compiler()
      compiler.recordsOrigins = true
      let path = folder.file("s.blockset").path
      try await compiler.compile([.text("a.website\n")]).writeArchive(
        to: path, fingerprint: "fp", withLookupTable: false)
      let file = try #require(BlockSetFile(path: path, fingerprint: "fp"))
      #expect(file.name(-1) == "" && file.name(1) == "")
      #expect(!file.isRemoved(-1))
      #expect(file.origin(5) == nil)
    }
  }
}
