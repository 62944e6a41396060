import Blocklists
import Foundation
import Testing

@Suite("Zone serials (RFC 1982)")
struct ZoneSerialTests {
  @Test("Serial arithmetic: greater across the wrap, never for equal or exactly 2^31 apart")
  func arithmetic() {
    #expect(ZoneSerial(2).isGreater(than: ZoneSerial(1)))
    #expect(!ZoneSerial(1).isGreater(than: ZoneSerial(2)))
    #expect(!ZoneSerial(5).isGreater(than: ZoneSerial(5)))
    #expect(ZoneSerial(0).isGreater(than: ZoneSerial(UInt32.max)))
    #expect(ZoneSerial(10).isGreater(than: ZoneSerial(UInt32.max - 10)))
    #expect(!ZoneSerial(1 << 31).isGreater(than: ZoneSerial(0)))
    #expect(!ZoneSerial(0).isGreater(than: ZoneSerial(1 << 31)))
  }

  @Test("Regression: two changes in the same minute (and second) get strictly greater serials; YYMMDDHHMM had repeated")
  func sameMinute() {
    let date = Date(timeIntervalSince1970: 1_795_849_500)  // 2026-11-28 05:05 UTC
    let first = ZoneSerial.next(after: nil, at: date)
    let second = ZoneSerial.next(after: first, at: date)
    let third = ZoneSerial.next(after: second, at: date.addingTimeInterval(0.5))
    #expect(second.isGreater(than: first))
    #expect(third.isGreater(than: second))
    #expect(ZoneSerial.next(after: third, at: date.addingTimeInterval(60)) == ZoneSerial(1_795_849_560))
  }

  @Test(
    "A zone written before with a YYMMDDHHMM serial (2611280505) is followed by a greater one, not the smaller clock")
  func migration() {
    let old = ZoneSerial(2_611_280_505)
    let next = ZoneSerial.next(after: old, at: Date(timeIntervalSince1970: 1_795_849_500))
    #expect(next == ZoneSerial(2_611_280_506))
    #expect(next.isGreater(than: old))
  }

  @Test("Still valid after 2042 and past 2106, where the clock wraps 32 bits: each change greater than the last")
  func farFuture() {
    var serial = ZoneSerial.next(after: nil, at: Date(timeIntervalSince1970: 2_300_000_000))  // 2042
    for year in stride(from: 2043.0, through: 2200, by: 7) {
      let date = Date(timeIntervalSince1970: (year - 1970) * 365.25 * 86_400)
      let next = ZoneSerial.next(after: serial, at: date)
      #expect(next.isGreater(than: serial), "\(year)")
      serial = next
    }
  }

  @Test("The serial is read from a zone's SOA line; none without one")
  func reading() {
    let zone =
      "; comment\n$TTL 300\n@ IN SOA localhost. root.localhost. 1795849500 3600 600 86400 300\n@ IN NS localhost.\n"
    #expect(ZoneSerial.read(from: Array(zone.utf8)) == ZoneSerial(1_795_849_500))
    #expect(ZoneSerial.read(from: Array("server=/a/\n".utf8)) == nil)
    #expect(ZoneSerial.read(from: Array("@ IN SOA a. b. notanumber 1 1 1 1\n".utf8)) == nil)
    #expect(ZoneSerial.read(path: "/nonexistent/zone") == nil)
  }

  @Test("A rendered zone carries the serial it is given")
  func rendered() async throws {
    var renderer = Renderer(format: .rpz, date: Date(timeIntervalSince1970: 1_795_849_500))
    renderer.serial = ZoneSerial(42)
    let list = try await compile(["ads.website\n"])
    var sink = ByteSink()
    _ = try renderer.render(list, to: &sink)
    #expect(String(decoding: sink.memory, as: UTF8.self).contains("@ IN SOA localhost. root.localhost. 42 3600"))
  }
}
