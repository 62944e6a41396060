import Foundation
import Testing

@testable import UseCases

@Suite("When a rule for a while ends (RuleEnd)")
struct RuleEndTests {
  @Test(
    "Durations: numbers with units, each unit once, more than zero, at most a year",
    arguments: [
      ("90s", 90.0), ("30m", 1800), ("1h", 3600), ("1h30m", 5400), ("2d", 172_800), ("1w", 604_800), (" 1H ", 3600),
    ])
  func durations(text: String, seconds: Double) throws {
    #expect(try RuleEnd.seconds(text) == seconds)
  }

  @Test("Not durations", arguments: ["", "1", "h", "0m", "1x", "1h1h", "-1h", "1.5h", "400d", "9999999999s"])
  func notDurations(text: String) {
    #expect(throws: RuleEnd.Invalid.self) { try RuleEnd.seconds(text) }
  }

  @Test("Times: a time of day is the next one; dates in the zone given; the past and beyond a year refused")
  func times() throws {
    let utc = TimeZone(identifier: "UTC")!
    let now = try #require(ISO8601DateFormatter().date(from: "2026-11-28T15:30:00Z"))
    #expect(try RuleEnd.date("18:00", now: now, timeZone: utc) == now.addingTimeInterval(2.5 * 3600))
    #expect(try RuleEnd.date("15:00", now: now, timeZone: utc) == now.addingTimeInterval(23.5 * 3600), "tomorrow")
    #expect(try RuleEnd.date("2026-12-01 18:00", now: now, timeZone: utc).timeIntervalSince(now) == 3 * 86_400 + 9000)
    let paris = TimeZone(identifier: "Europe/Paris")!
    #expect(try RuleEnd.date("2026-11-28T18:00", now: now, timeZone: paris) == now.addingTimeInterval(1.5 * 3600))
    #expect(try RuleEnd.date("2026-11-28T16:00:00Z", now: now) == now.addingTimeInterval(1800))
    for text in ["2026-11-28 15:00", "2030-01-01 00:00", "noon", "25:00", ""] {
      #expect(throws: RuleEnd.Invalid.self, "\(text)") { try RuleEnd.date(text, now: now, timeZone: utc) }
    }
  }

  @Test("What is left, in words")
  func remaining() {
    let now = Date(timeIntervalSince1970: 0)
    #expect(RuleEnd.remaining(until: now, now: now) == "now")
    #expect(RuleEnd.remaining(until: now.addingTimeInterval(30), now: now) == "in 30 s")
    #expect(RuleEnd.remaining(until: now.addingTimeInterval(3540), now: now) == "in 59 min")
    #expect(RuleEnd.remaining(until: now.addingTimeInterval(3600), now: now) == "in 1 h")
    #expect(RuleEnd.remaining(until: now.addingTimeInterval(3900), now: now) == "in 1 h 5 min")
    #expect(RuleEnd.remaining(until: now.addingTimeInterval(3 * 86_400), now: now) == "in 3 days")
  }
}
