import Foundation
import Testing

@testable import Traffic

/// Lines as BIND 9.18.49 (Debian 12) wrote them: `print-time yes`, categories printed or not.
@Suite("BIND's query and RPZ log")
struct BindLogTests {
  static let log = """
    27-Nov-2026 05:34:05.180 client @0x7fd6640e2098 127.0.0.1#52800 (plain.website): query: plain.website IN A +E(0)K (127.0.0.1)
    27-Nov-2026 05:34:05.884 queries: info: client @0x7fd6640e2098 127.0.0.1#44648 (ads.website): query: ads.website IN HTTPS +E(0)K (127.0.0.1)
    27-Nov-2026 05:34:05.884 rpz: info: client @0x7fd6640e2098 127.0.0.1#44648 (ads.website): rpz QNAME NXDOMAIN rewrite ads.website/HTTPS/IN via ads.website.sanehosts.rpz
    27-Nov-2026 05:34:06.832 client @0x7fd6640e2098 127.0.0.1#58301 (cname.website): query: cname.website IN A +E(0)K (127.0.0.1)
    27-Nov-2026 05:34:06.832 client @0x7fd6640e2098 127.0.0.1#58301 (cname.website): rpz QNAME NXDOMAIN rewrite target.website/A/IN via target.website.sanehosts.rpz
    27-Nov-2026 05:34:09.216 rpz-passthru: info: client @0x7fd6640e2098 127.0.0.1#36211 (hosted.website): rpz QNAME PASSTHRU rewrite hosted.website/A/IN via hosted.website.sanehosts.rpz
    2026-11-27T05:34:35.836Z queries: info: client @0x7f413b6e0098 127.0.0.1#39572 (Plain.website): query: Plain.website IN AAAA +E(0)K (127.0.0.1)
    27-Nov-2026 05:34:40.000 query-errors: info: client @0x7fd6640e2098 127.0.0.1#1 (x.website): query failed (REFUSED) for x.website/IN/A at query.c:5708
    """

  @Test("Queries; RPZ rewrites but PASSTHRU are blocks, counted for the name the client asked (a CNAME's target too)")
  func queriesAndRewrites() {
    let (found, findings, _) = events(Self.log, parser: BindLog())
    #expect(
      summary(found) == [
        "query plain.website A 127.0.0.1", "query ads.website HTTPS 127.0.0.1", "blocked ads.website 127.0.0.1",
        "query cname.website A 127.0.0.1", "blocked cname.website 127.0.0.1 via target.website",
        "query plain.website AAAA 127.0.0.1",
      ])
    #expect(findings.skippedLines == 0)
    #expect(findings.otherLines == 2)
    #expect(abs((found.first?.time?.timeIntervalSince1970 ?? 0) - 1_795_757_645.18) < 0.001)
  }

  @Test("Without print-time a line has no time but still counts; junk and cut lines are skipped")
  func noTimeAndDamage() {
    let text = """
      client @0x7fd6640e2098 127.0.0.1#52800 (plain.website): query: plain.website IN A +E(0)K (127.0.0.1)
      27-Nov-2026 05:34:05.180 client @0x7fd6640e2098 127.0.0.1#52800 (cut.website): query: cut.website
      \u{7F}ELF binary junk
      """
    let (found, findings, _) = events(text, parser: BindLog())
    #expect(summary(found) == ["query plain.website A 127.0.0.1"])
    #expect(found.first?.time == nil)
    #expect(findings.skipped == ["truncated query line": 1, "not a BIND log line": 1])
  }
}
