import Blocklists
import Foundation
import TestSupport
import Testing

@Suite("One source's own names, collected while it is merged")
struct LeanListTests {
  static let text = "0.0.0.0 b.website\n0.0.0.0 a.website\n0.0.0.0 b.website\nbad_name!\n||c.website^\n"

  @Test("Its file reads back as the source compiled alone and written lean: the same names, order and report")
  func sameFileAsCompiledAlone() async throws {
    try await TemporaryDirectory.with { folder in
      var merging = Compiler.Merging(sourceCount: 2)
      // Merged second, after a source that shares a name: its own list still has every name it gives.
      _ = merging.add(try await Compiler().parse(.text("a.website\n", name: "first")), name: "first")
      let own = merging.add(try await Compiler().parse(.text(Self.text, name: "list1")), name: "list1")
      #expect(own.count == 3)
      #expect(own.names == ["b.website", "a.website", "c.website"])
      #expect(own.report.unique == 3)
      #expect(own.report.duplicates == 1)

      let lean = folder.file("lean").path
      let alone = folder.file("alone").path
      try own.writeArchive(to: lean, fingerprint: "copy")
      try await compile([Self.text]).writeArchive(to: alone, fingerprint: "copy", withLookupTable: false)
      let read = try #require(CompiledList.readArchive(at: lean, fingerprint: "copy", rules: RuleSet()))
      let expected = try #require(CompiledList.readArchive(at: alone, fingerprint: "copy", rules: RuleSet()))
      #expect(read.allNames == expected.allNames)
      #expect(read.sources == expected.sources)
      #expect(read.sources(listing: "a.website") == ["list1"])
      // The same size: no table, no source bits, as lean as the file of the source compiled alone.
      let sizes = try [lean, alone].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
      #expect(sizes[0] == sizes[1])
    }
  }

  @Test("An empty source gives an empty list that reads back")
  func empty() async throws {
    try await TemporaryDirectory.with { folder in
      var merging = Compiler.Merging(sourceCount: 1)
      let own = merging.add(try await Compiler().parse(.text("# nothing\n", name: "x")), name: "x")
      #expect(own.count == 0)
      let path = folder.file("empty").path
      try own.writeArchive(to: path, fingerprint: "f")
      #expect(CompiledList.readArchive(at: path, fingerprint: "f", rules: RuleSet())?.count == 0)
    }
  }
}
