import Testing

@testable import Downloads

@Suite("Content-Range parsing")
struct ContentRangeTests {
  @Test("Well-formed ranges parse, with or without a known total")
  func valid() {
    #expect(ContentRange("bytes 100-199/200") == ContentRange(start: 100, end: 199, total: 200))
    #expect(ContentRange("bytes 0-9/*")?.total == nil)
  }

  @Test("Malformed ranges are rejected", arguments: [nil, "", "bytes", "bytes 9-1/10", "items 0-1/2", "bytes a-b/c"])
  func invalid(header: String?) {
    #expect(ContentRange(header) == nil)
  }
}

extension ContentRange {
  init(start: Int64, end: Int64, total: Int64?) {
    self.init("bytes \(start)-\(end)/\(total.map(String.init) ?? "*")")!
  }
}
