import Foundation
import Testing

@testable import Downloads

@Suite("HTTP dates")
struct HTTPDateTests {
  @Test("Dates are formatted as IMF-fixdate in GMT, whatever the locale")
  func format() {
    #expect(HTTPDate.string(from: Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.string(from: Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
  }
}
