import BlockerTest
import Foundation
import Testing

@Suite("Blocker test reports")
struct TestReportTests {
  @Test("JSON has the documented top-level fields and every domain with outcome and reason, and reads back")
  func json() throws {
    let original = report(["ads.website": .blocked, "stats.website": .reachable], id: 7)
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(original)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "schemaVersion", "id", "startedAt", "milliseconds", "probe", "target", "timeoutMilliseconds", "score",
        "categories", "providers", "controls", "results", "warnings",
      ])
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.count == 4)
    #expect(results[0]["hostname"] as? String == "ads.website")
    #expect(results[0]["outcome"] as? String == "blocked")
    #expect(results[0]["reason"] as? String == "NXDOMAIN")
    #expect((object["score"] as? [String: Any])?["blocked"] as? Int == 1)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(TestReport.self, from: data) == original)
  }

  @Test("Text: summary with gauge, category and provider tables, slowest probes, what was not blocked")
  func text() {
    let text = report(["ads.website": .blocked, "banner.website": .blocked, "stats.website": .reachable], id: 3)
      .text()
    #expect(text.hasPrefix("Blocker test #3: dns probe via 127.0.0.1:53, 4 domains in 0.42 s (timeout 2 s)\n"))
    #expect(text.contains("Score: [█████████████░░░░░░░] 67 % (strong), 1 inconclusive"))
    #expect(text.contains("Ads              2          0         0  100 % (strong)\n"))
    #expect(text.contains("Slowest probes:\n  150 ms  metrics.website"))
    #expect(text.contains("reachable    stats.website (Analytics, A): 192.0.2.1"))
    #expect(!text.contains("\u{1B}["))
    #expect(report([:]).text(colour: true).contains("\u{1B}[33m"))
  }

  @Test("JUnit: a suite per category, reachable domains fail, inconclusive ones are skipped, XML escaped")
  func junit() {
    var sample = report(["ads.website": .blocked, "stats.website": .reachable])
    sample.results[2].reason = "a <b> & \"c\""
    let xml = sample.junit()
    #expect(
      xml.hasPrefix(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"sanehosts blocker test\" tests=\"4\" failures=\"1\" skipped=\"2\""
      ))
    #expect(xml.contains("<testsuite name=\"Ads\" tests=\"2\" failures=\"0\" skipped=\"1\""))
    #expect(xml.contains("<testcase classname=\"Ads.A\" name=\"ads.website\" time=\"0.110\"/>"))
    #expect(xml.contains("<failure message=\"reachable: a &lt;b&gt; &amp; &quot;c&quot;\" type=\"reachable\"/>"))
    #expect(xml.contains("<skipped message=\"inconclusive: timeout after 2 s\"/>"))
    #expect(xml.hasSuffix("</testsuites>\n"))
  }

  /// The small report with its control domain blocked.
  func overBlocking() -> TestReport {
    var sample = report(["ads.website": .blocked, "stats.website": .reachable], id: 9)
    sample.controls = [
      DomainResult(
        domain: TestDomain(hostname: "example.com", category: "Control", provider: "IANA"),
        verdict: Verdict(.blocked, "NXDOMAIN"), milliseconds: 5)
    ]
    return sample
  }

  @Test("A blocked control domain keeps its warning beside the score: text, JSON, JUnit; none when controls pass")
  func controlsWarning() throws {
    let sample = overBlocking()
    let warning = "1 of 1 control domains blocked (example.com): the blocker over-blocks"
    #expect(sample.scoreWarning == warning)
    let text = sample.text()
    let scoreLine = try #require(text.split(separator: "\n").firstIndex { $0.hasPrefix("Score:") })
    #expect(text.split(separator: "\n")[scoreLine + 1].contains("⚠ \(warning): the score may be too high"), "\(text)")
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(sample)) as? [String: Any]
    #expect(object?["scoreWarning"] as? String == warning)
    let xml = sample.junit()
    #expect(xml.contains("tests=\"5\" failures=\"2\""), "\(xml)")
    #expect(xml.contains("<testsuite name=\"Controls\" tests=\"1\" failures=\"1\""))
    #expect(xml.contains("<property name=\"warning\" value=\"\(warning)\"/>"))
    #expect(xml.contains("<failure message=\"control blocked: NXDOMAIN\" type=\"over-blocking\"/>"))
    let clean = report(["ads.website": .blocked])
    #expect(clean.scoreWarning == nil && !clean.text().contains("⚠"))
  }

  @Test("A name decided by the user's rule says so in the text, beside the lists that carry it")
  func ruleInText() {
    var sample = report(["stats.website": .reachable])
    sample.results[2].rule = "allowed by your rule stats.website"
    sample.results[2].listedBy = ["easylist"]
    #expect(
      sample.text().contains(
        "stats.website (Analytics, A): 192.0.2.1; allowed by your rule stats.website; listed by easylist"))
  }
}

@Suite("Reports with leaks")
struct TestReportLeakTests {
  static func leakyReport() -> TestReport {
    var report = report(["ads.website": .blocked, "banner.website": .reachable, "stats.website": .blocked])
    report.results[3] = DomainResult(
      domain: smallRegistry.tested[3],
      verdict: Verdict(
        .leaking, "leaks via CNAME: metrics.website → ads.website answers 192.0.2.1, though ads.website is blocked",
        addresses: ["192.0.2.1"], chain: ["metrics.website", "ads.website"]), milliseconds: 5)
    return report
  }

  @Test("Text: a leaking count and column, the domain with its chain; JUnit: a failure of type leaking")
  func leaking() {
    let report = Self.leakyReport()
    #expect(report.score.leaking == 1 && report.score.percent == 50)
    let text = report.text()
    #expect(text.contains("blocked 2, reachable 1, leaking 1, inconclusive 0"), "\(text)")
    #expect(text.contains("BLOCKED  REACHABLE  LEAKING  INCONCL."), "\(text)")
    #expect(text.contains("leaking      metrics.website"), "\(text)")
    #expect(text.contains("CNAME chain metrics.website → ads.website"), "\(text)")
    let junit = report.junit()
    #expect(junit.contains("type=\"leaking\""))
    #expect(junit.contains("failures=\"2\""), "\(junit)")
  }

  @Test("Without leaks the text has no leaking column or count, as before")
  func noLeaks() {
    let text = report(["ads.website": .blocked]).text()
    #expect(!text.contains("LEAKING") && !text.contains("leaking"))
  }
}
