import Foundation
import Testing

@testable import Blocklists

@Suite("The header's date")
struct RendererHeaderTests {
  @Test("UTC to the second, fractions dropped: what Foundation's ISO 8601 style wrote")
  func date() {
    #expect(HeaderDate.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    #expect(HeaderDate.string(from: Date(timeIntervalSince1970: 1_764_320_411.9)) == "2025-11-28T09:00:11Z")
    for seconds in [951_782_400.0, 1_000_000_000, 4_102_444_799.5, 7_258_118_400] {
      let date = Date(timeIntervalSince1970: seconds)
      let foundation = date.formatted(
        .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
          .timeZone(separator: .omitted))
      #expect(HeaderDate.string(from: date) == foundation)
    }
  }
}
