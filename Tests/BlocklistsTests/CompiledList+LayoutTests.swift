import Foundation
import TestSupport
import Testing

@testable import Blocklists

@Suite("The layout of a block set file")
struct CompiledListLayoutTests {
  @Test("Every section starts 8-byte aligned, in order, and holds the counts the header gives")
  func sections() async throws {
    try await TemporaryDirectory.with { directory in
      let list = try await compile(["0.0.0.0 ads.website\n0.0.0.0 b.website\n", "tracker.website\n"])
      let path = directory.file("p.blockset").path
      try list.writeArchive(to: path, fingerprint: "fp")
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      try data.withUnsafeBytes { raw in
        let layout = try #require(CompiledList.Layout(raw, fingerprint: "fp"))
        #expect(layout.entries == 3 && layout.nameBytes == "ads.websiteb.websitetracker.website".utf8.count)
        #expect(layout.metadata.sources.map(\.name) == ["list1", "list2"])
        var previous = 0
        for section in CompiledList.Layout.Section.allCases {
          #expect(layout.start(of: section) % 8 == 0 && layout.start(of: section) >= previous, "\(section)")
          previous = layout.start(of: section)
        }
        #expect(layout.count(of: .ends) == 3)
        // The reader at a section reads what was written there.
        var reader = layout.reader(raw, at: .bytes)
        let bytes: [UInt8] = try reader.array(layout.nameBytes)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("ads.website"))
        #expect(CompiledList.Layout(raw, fingerprint: "other") == nil)
      }
    }
  }

  @Test("A truncated file, one byte more, or another format version is no layout (never read out of bounds)")
  func damaged() async throws {
    try await TemporaryDirectory.with { directory in
      let list = try await compile(["0.0.0.0 ads.website\n"])
      let path = directory.file("p.blockset").path
      try list.writeArchive(to: path, fingerprint: "fp")
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      var variants = [data.dropLast(8), data + [0], data.prefix(30)].map { Data($0) }
      var version = data
      version[8] ^= 0xFF
      variants.append(version)
      for variant in variants {
        #expect(variant.withUnsafeBytes { CompiledList.Layout($0, fingerprint: "fp") } == nil)
        let file = directory.file("v")
        try variant.write(to: file)
        #expect(BlockSetFile(path: file.path, fingerprint: "fp") == nil)
        #expect(CompiledList.readArchive(at: file.path, fingerprint: "fp", rules: RuleSet()) == nil)
      }
    }
  }
}
