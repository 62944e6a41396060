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
}
