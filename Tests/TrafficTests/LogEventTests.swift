import Foundation
import Testing

@testable import Traffic

@Suite("Events and the lines that could not be read")
struct LogEventTests {
  @Test("Samples: five per reason, printable, shortened; findings of two files add up")
  func findings() {
    var first = LogFindings()
    for line in 1...7 {
      Array("bad\u{1}line \(line)".utf8).withUnsafeBufferPointer {
        first.skip("truncated", file: "a.log", line: line, text: $0)
      }
    }
    #expect(first.skipped == ["truncated": 7])
    #expect(first.samples["truncated"]?.count == 5)
    #expect(first.samples["truncated"]?.first?.text == "bad\\x01line 1")
    var second = LogFindings()
    second.lines = 3
    Array(repeating: UInt8(ascii: "x"), count: 500).withUnsafeBufferPointer {
      second.skip("long", file: "b.log", line: 2, text: $0)
    }
    first.add(second)
    #expect(first.lines == 3 && first.skippedLines == 8)
    #expect(first.samples["long"]?.first?.text.count == 120)
    #expect(LogEvent.blocked(time: nil, name: "a", client: nil).time == nil)
  }
}
