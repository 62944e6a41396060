import Blocklists
import Foundation
import Testing

@testable import SaneHostsCLI

@Suite("The compile summary")
struct CompileSummaryTests {
  @Test("Numbers are grouped, reasons come with a sample, JSON is one object")
  func format() async throws {
    let list = try await Compiler().compile([.text("0.0.0.0 a.example.com\nbad..x\n", name: "mine")])
    let summary = CompileSummary(
      list: list, report: Renderer.Report(written: 1), format: .hosts, elapsed: .milliseconds(1500))
    #expect(
      summary.text().contains(
        "mine (hosts): 2 lines, 1 name, 1 new, 0 duplicates, 1 rejected\n  1 empty label (line 2: bad..x)\n"))
    #expect(summary.text().hasSuffix("1 name written as hosts in 1.50 s\n"))
    #expect(1_234_567.grouped == "1,234,567")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
    #expect(object["written"] as? Int == 1)
  }

  @Test("Seconds to two decimals, rounded, as %.2f wrote them")
  func hundredths() {
    for seconds in [0, 0.004, 0.005, 0.03, 0.5, 1.5, 12.345, 99.999, 123.4] {
      #expect(CompileSummary.hundredths(seconds) == String(format: "%.2f", seconds), "\(seconds)")
    }
  }

  @Test("Names too long for the RPZ zone are counted with samples, in text and JSON")
  func tooLongForZone() async throws {
    let list = try await Compiler().compile([.text("a.example.com\n", name: "mine")])
    var report = Renderer.Report(written: 1)
    report.tooLongForZone = 1
    report.tooLongSamples = ["long.website"]
    let summary = CompileSummary(list: list, report: report, format: .rpz, elapsed: .zero)
    #expect(
      summary.text().contains(
        "1 name too long for the zone left out (with .sanehosts.rpz after them they pass 253 characters): long.website\n"
      ))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
    #expect(object["tooLongForZone"] as? Int == 1)
  }

  @Test("An input without names is flagged: empty, or not a blocklist")
  func warnings() async throws {
    let list = try await Compiler().compile([.text("", name: "empty"), .text("<html></html>", name: "page")])
    let text = CompileSummary(list: list, report: Renderer.Report(), format: .hosts, elapsed: .zero).text()
    #expect(
      text.contains(
        "empty (no names): 0 lines, 0 names, 0 new, 0 duplicates, 0 rejected\n  warning: the input is empty\n"))
    #expect(text.contains("warning: page looks like a web page (HTML), not a list"))
    let junk = try await Compiler().compile([.text("no names here at all\n", name: "junk")])
    let junkText = CompileSummary(list: junk, report: Renderer.Report(), format: .hosts, elapsed: .zero).text()
    #expect(junkText.contains("warning: no valid names; make sure it is a blocklist"))
  }
}
