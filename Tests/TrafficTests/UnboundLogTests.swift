import Foundation
import Testing

@testable import Traffic

/// Lines as unbound 1.17.1 wrote them (Debian 12): log-queries, log-replies, log-local-actions.
@Suite("unbound's query log")
struct UnboundLogTests {
  static let log = """
    [1795757559] unbound[26643:0] notice: init module 0: iterator
    [1795757559] unbound[26643:0] info: start of service (unbound 1.17.1).
    [1795757560] unbound[26643:0] info: 127.0.0.1 plain.website. A IN
    [1795757560] unbound[26643:0] info: 127.0.0.1 plain.website. A IN NOERROR 0.003131 0 58
    [1795757561] unbound[26643:0] info: 127.0.0.1 ads.website. A IN
    [1795757561] unbound[26643:0] info: ads.website. always_null 127.0.0.1@53043 ads.website. A IN
    [1795757561] unbound[26643:0] info: 127.0.0.1 ads.website. A IN NOERROR 0.000000 1 56
    [1795757562] unbound[26643:0] info: 127.0.0.1 sub.hosted.website. A IN
    [1795757562] unbound[26643:0] info: hosted.website. transparent 127.0.0.1@34105 sub.hosted.website. A IN
    [1795757563] unbound[26643:0] info: 127.0.0.1 nowhere.test. A IN
    [1795757563] unbound[26643:0] info: test. static 127.0.0.1@49980 nowhere.test. A IN
    [1795757570] unbound[26643:0] info: histogram of recursion processing times
    [1795757570] unbound[26643:0] info: [25%]=0.000768 median[50%]=0.001536 [75%]=0.00238933
    [1795757570] unbound[26643:0] info:    0.000000    0.000001 1
    """

  @Test("Queries from query lines (replies then say nothing more); blocks from blocking local actions only")
  func queriesAndLocalActions() {
    let (found, findings, tells) = events(Self.log, parser: UnboundLog())
    #expect(
      summary(found) == [
        "query plain.website A 127.0.0.1", "query ads.website A 127.0.0.1", "blocked ads.website 127.0.0.1",
        "query sub.hosted.website A 127.0.0.1", "query nowhere.test A 127.0.0.1", "blocked nowhere.test 127.0.0.1",
      ])
    #expect(findings.skippedLines == 0, "\(findings.samples)")
    #expect(tells)
    #expect(found.first?.time == Date(timeIntervalSince1970: 1_795_757_560))
  }

  @Test("log-replies alone: each reply is its query; without local actions the log cannot tell blocks")
  func repliesOnly() {
    let replies = Self.log.split(separator: "\n").filter { $0.hasSuffix("56") || $0.hasSuffix("58") }
      .joined(separator: "\n")
    let (found, _, tells) = events(replies, parser: UnboundLog())
    #expect(summary(found) == ["query plain.website A 127.0.0.1", "query ads.website A 127.0.0.1"])
    #expect(!tells)
  }

  @Test("log-time-ascii and log-tag-queryreply lines; a query line cut short is counted")
  func asciiAndTags() {
    let text = """
      Nov 27 00:32:52 unbound[27257:0] query: 127.0.0.1 plain.website. A IN
      Nov 27 00:32:52 unbound[27257:0] reply: 127.0.0.1 plain.website. A IN NOERROR 0.001 0 58
      Nov 27 00:32:53 unbound[27257:0] query: 127.0.0.1 cut.website.
      """
    let (found, findings, _) = events(text, parser: UnboundLog())
    #expect(summary(found) == ["query plain.website A 127.0.0.1"])
    #expect(findings.skipped == ["truncated query line": 1])
  }
}
