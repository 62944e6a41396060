import Foundation
import Testing

@testable import Traffic

@Suite("Query log timestamps")
struct LogClockTests {
  static let utc = TimeZone(identifier: "UTC")!
  /// 2026-11-27 17:20:00 UTC.
  static let now = Date(timeIntervalSince1970: 1_795_800_000)

  static func read(
    _ text: String, zone: TimeZone = utc, now: Date = now,
    _ form: (inout LogClock, UnsafeBufferPointer<UInt8>) -> (Date, Int)?
  ) -> (Date, Int)? {
    var clock = LogClock(now: now, timeZone: zone)
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { form(&clock, $0) }
  }

  @Test("syslog: day padded with a space or a zero; local time; no year, so the last such time not after tomorrow")
  func syslog() throws {
    #expect(Self.read("Nov  7 05:30:40 x") { $0.syslog($1) }?.0 == Date(timeIntervalSince1970: 1_794_029_440))
    #expect(Self.read("Nov 07 05:30:40 x") { $0.syslog($1) }?.0 == Date(timeIntervalSince1970: 1_794_029_440))
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    #expect(
      Self.read("Nov 27 00:30:40 x", zone: newYork) { $0.syslog($1) }?.0 == Date(timeIntervalSince1970: 1_795_757_440))
    // A December line read on 2 January is from the year before.
    let january = Date(timeIntervalSince1970: 1_798_848_000)  // 2027-01-02 00:00 UTC
    #expect(
      Self.read("Dec 31 23:59:59 x", now: january) { $0.syslog($1) }?.0 == Date(timeIntervalSince1970: 1_798_761_599))
    #expect(Self.read("Foo 27 05:30:40 x") { $0.syslog($1) } == nil)
    #expect(Self.read("Nov 27 25:30:40 x") { $0.syslog($1) } == nil)
  }

  @Test("BIND's print-time, ISO 8601 with Z, an offset or none (local), unbound's epoch")
  func otherForms() {
    #expect(Self.read("27-Nov-2026 05:34:05.180 x") { $0.bind($1) }.map { $0.1 } == 24)
    let iso = Self.read("2026-11-27T05:34:35.500Z x") { $0.iso($1) }
    #expect(iso?.0 == Date(timeIntervalSince1970: 1_795_757_675.5) && iso?.1 == 24)
    #expect(
      Self.read("2026-11-27T06:34:35+01:00 x") { $0.iso($1) }?.0 == Date(timeIntervalSince1970: 1_795_757_675))
    #expect(Self.read("2026-11-27T05:34:35 x") { $0.iso($1) }?.0 == Date(timeIntervalSince1970: 1_795_757_675))
    #expect(
      Self.read("[1795757560] x") { clock, bytes in clock.epoch(bytes) }?.0
        == Date(timeIntervalSince1970: 1_795_757_560))
    #expect(Self.read("[17957x] x") { clock, bytes in clock.epoch(bytes) } == nil)
  }
}
