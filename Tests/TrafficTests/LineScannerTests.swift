import Testing

@testable import Traffic

@Suite("Tokens of a log line")
struct LineScannerTests {
  @Test("Tokens split on spaces and tabs; a name lower-cased without its final dot")
  func tokens() {
    let bytes = Array("  query[A]\tAds.Website.  from 10.0.0.1 ".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      var scan = LineScanner(buffer)
      let tokens = scan.rest()
      #expect(tokens.count == 4)
      #expect(scan.hasPrefix(tokens[0], "query["))
      #expect(scan.name(tokens[1]) == "ads.website")
      #expect(scan.equals(tokens[2], "from") && !scan.equals(tokens[2], "fro"))
      #expect(scan.contains(tokens[3], 0x2E) && !scan.isDigits(tokens[3]))
      #expect(scan.next() == nil)
    }
  }

  @Test(
    "Names a query cannot ask are bad lines with their reason: a label over 63 bytes, a name over 253, bytes outside LDH (non-ASCII, escapes), empty labels; service names, punycode and the root pass"
  )
  func nameProblems() {
    func problem(_ name: String) -> String? {
      Array(name.utf8).withUnsafeBufferPointer { LineScanner.nameProblem($0) }
    }
    #expect(problem("ads.website") == nil)
    #expect(problem("ads.website.") == nil)
    #expect(problem("_dmarc.mail.website") == nil)
    #expect(problem("xn--bcher-kva.website") == nil)
    #expect(problem(".") == nil)
    #expect(problem(String(repeating: "a", count: 64) + ".website") == "a label longer than 63 bytes")
    #expect(problem(String(repeating: "a", count: 63) + ".website") == nil)
    let long = Array(repeating: String(repeating: "b", count: 60), count: 5).joined(separator: ".")
    #expect(problem(long) == "longer than 253 bytes")
    #expect(problem("bücher.website") == "a byte outside letters, digits, hyphen and underscore")
    #expect(problem("a\\032b.website") == "a byte outside letters, digits, hyphen and underscore")
    #expect(problem("a..website") == "an empty label")
  }

  @Test("Regression: a query line with an invalid name is counted as a bad line with its reason, not as a query")
  func invalidNamesAreBadLines() {
    let label = String(repeating: "x", count: 70)
    let log = """
      Nov 27 05:30:40 dnsmasq[1]: query[A] \(label).website from 127.0.0.1
      Nov 27 05:30:40 dnsmasq[1]: query[A] b\u{FC}cher.website from 127.0.0.1
      Nov 27 05:30:41 dnsmasq[1]: query[A] good.website from 127.0.0.1
      """
    let (found, findings, _) = events(log, parser: DnsmasqLog())
    #expect(summary(found) == ["query good.website A 127.0.0.1"])
    #expect(findings.skipped["invalid name: a label longer than 63 bytes"] == 1)
    #expect(findings.skipped["invalid name: a byte outside letters, digits, hyphen and underscore"] == 1)
    let unbound = "[1764221440] unbound[1:0] info: 127.0.0.1 \(label).website. A IN\n"
    let (unboundFound, unboundFindings, _) = events(unbound, parser: UnboundLog())
    #expect(unboundFound.isEmpty && unboundFindings.skippedLines == 1)
    let bind =
      "27-Nov-2026 05:30:40.123 client @0x1 127.0.0.1#5353 (\(label).website): query: \(label).website IN A +E(0) (127.0.0.1)\n"
    let (bindFound, bindFindings, _) = events(bind, parser: BindLog())
    #expect(bindFound.isEmpty && bindFindings.skippedLines == 1, "\(bindFindings)")
  }
}
