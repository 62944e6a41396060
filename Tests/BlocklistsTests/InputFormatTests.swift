import Blocklists
import Testing

@Suite("List formats")
struct ListFormatTests {
  @Test("Only hosts and plain domains block exactly one name per entry")
  func coverage() {
    #expect(InputFormat.allCases.filter { !$0.coversSubdomains } == [.hosts, .domains])
  }

  @Test("Comment syntax per format")
  func comments() {
    #expect(OutputFormat.adblock.commentPrefix == "!")
    #expect(OutputFormat.rpz.commentPrefix == ";")
    #expect(OutputFormat.unbound.commentPrefix == "#")
  }

  @Test("Sources name themselves after their file")
  func sources() {
    #expect(ListSource.file("/tmp/a.txt").name == "/tmp/a.txt")
    #expect(ListSource.text("x", name: "n", format: .adblock).format == .adblock)
  }
}

@Suite("A line's own format")
struct LineFormatTests {
  @Test("Each line is recognised as the parser does; comments and blank lines have none")
  func lines() {
    #expect(InputFormat.of(line: "0.0.0.0 ads.website\r") == .hosts)
    #expect(InputFormat.of(line: "||ads.website^") == .adblock)
    #expect(InputFormat.of(line: "address=/ads.website/#") == .dnsmasq)
    #expect(InputFormat.of(line: "local-zone: \"ads.website.\" always_null") == .unbound)
    #expect(InputFormat.of(line: "*.ads.website") == .wildcard)
    #expect(InputFormat.of(line: "  ads.website") == .domains)
    #expect(InputFormat.of(line: "") == nil)
  }
}
