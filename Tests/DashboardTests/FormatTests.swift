import Foundation
import Testing

@testable import Dashboard

@Suite("Ages, dates and times for people")
struct FormatTests {
  @Test("Ages round to the unit people read; dates are UTC; times of day are this machine's")
  func formats() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(Format.age(nil, now: now) == "never")
    #expect(Format.age(now.addingTimeInterval(-30), now: now) == "just now")
    #expect(Format.age(now.addingTimeInterval(-600), now: now) == "10 min ago")
    #expect(Format.age(now.addingTimeInterval(-7200), now: now) == "2 h ago")
    #expect(Format.age(now.addingTimeInterval(-3 * 86_400), now: now) == "3 days ago")
    #expect(Format.date(now) == "2027-01-15 08:00 UTC")
    let time = Format.time(now)
    #expect(time.range(of: #"^\d\d:\d\d:\d\d$"#, options: .regularExpression) != nil, "\(time)")
    #expect(Format.decimal(37.84) == "37.8" && Format.decimal(100) == "100.0")
  }
}
