import Foundation
import Locking
import Store
import Testing
import Updates

@testable import SaneHostsCLI

@Suite("Update progress rendering")
struct UpdateRendererTests {
  final class Output: Sendable {
    let text = Locked("")
    func write(_ value: String) { text.withLock { $0 += value } }
    var value: String { text.withLock { $0 } }
  }

  static let profile = Profile(id: 1, name: "default", isActive: true)
  static let sources = [
    Source(id: 1, key: "one", name: "one", location: "https://a.website/one"),
    Source(id: 2, key: "two", name: "two", location: "https://a.website/two"),
  ]

  @Test("Live mode redraws one line per source and an overall bar, in place")
  func live() {
    let output = Output()
    let renderer = UpdateRenderer(mode: .live, width: 100, write: output.write)
    renderer.handle(.started(profile: Self.profile, sources: Self.sources))
    renderer.handle(.source(key: "one", .done(.updated(names: 1200, rejected: 3, bytes: 40_000))))
    renderer.handle(.source(key: "two", .done(.unchanged(.notModified))))
    let text = output.value
    #expect(text.contains("one  ✓ updated: 1,200 names, 3 rejected, 40.0 kB"))
    #expect(text.contains("two  = unchanged (not modified)"))
    #expect(text.contains("[########################] 100%  2 of 2 sources"))
    #expect(text.contains("\u{1B}[3A"), "the second frame moves up over the first")
    // Every line fits the width, so redraws never wrap.
    for line in text.split(separator: "\n") {
      #expect(line.replacingOccurrences(of: "\u{1B}[3A", with: "").count <= 100 + 5)
    }
  }

  @Test("Live redraws are throttled to about ten a second")
  func throttled() {
    let output = Output()
    let renderer = UpdateRenderer(mode: .live, width: 100, write: output.write)
    renderer.handle(.started(profile: Self.profile, sources: Self.sources))
    for bytes in stride(from: 0, to: 100_000, by: 1000) {
      renderer.handle(.source(key: "one", .downloading(bytes: Int64(bytes), total: 100_000)))
    }
    let frames = output.value.components(separatedBy: "[").filter { $0.hasPrefix("#") || $0.hasPrefix(".") }.count
    #expect(frames <= 2, "100 progress events in a burst drew \(frames) frames")
  }

  @Test("Phases are described with bytes, percent and counts")
  func describe() {
    #expect(
      UpdateRenderer.describe(.downloading(bytes: 1_500_000, total: 3_000_000))
        == "| downloading 1.5 MB of 3.0 MB (50%)")
    #expect(UpdateRenderer.describe(.downloading(bytes: 2_000, total: nil), frame: 1) == "/ downloading 2.0 kB")
    #expect(UpdateRenderer.describe(.parsing(lines: 12_345, names: 12_000)) == "| parsing 12,345 lines, 12,000 names")
    // The attempt about to start, counted from 1, and the wait before it (it said "attempt 4 of 3").
    #expect(
      UpdateRenderer.describe(.retrying(attempt: 3, of: 3, after: .milliseconds(2500), reason: "HTTP 503"))
        == "| retrying in 2.5 s (attempt 3 of 3): HTTP 503")
    #expect(SourcePhase.downloading(bytes: 50, total: 100).fraction == 0.375)
    #expect(SourcePhase.waiting.fraction == 0)
    #expect(SourcePhase.done(.unchanged(.sameContent)).fraction == 1)
  }

  @Test("Plain mode prints each phase change once, no progress flood")
  func plain() {
    let output = Output()
    let renderer = UpdateRenderer(mode: .plain, write: output.write)
    renderer.handle(.started(profile: Self.profile, sources: Self.sources))
    renderer.handle(.source(key: "one", .connecting(attempt: 1)))
    for bytes in 0..<50 { renderer.handle(.source(key: "one", .downloading(bytes: Int64(bytes), total: nil))) }
    renderer.handle(
      .source(
        key: "one",
        .done(.failed(SourceFailure(kind: .download, message: "one: HTTP 404.", suggestion: "Check the URL.")))))
    #expect(output.value == "Updating profile default: 2 sources\none: connecting\none: ✗ failed: HTTP 404.\n")
  }

  @Test("JSON mode writes one object per event")
  func json() throws {
    let line = UpdateRenderer.json(.source(key: "one", .downloading(bytes: 10, total: 20)))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["phase"] as? String == "downloading")
    #expect(object["bytes"] as? Int == 10)
    #expect(object["total"] as? Int == 20)
  }
}
