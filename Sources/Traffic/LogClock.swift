import Foundation

/// Reads the timestamps query logs start with, in the machine's time zone where the log writes local
/// time, fast enough for a million lines: each hour is converted through `Calendar` once.
///
/// - syslog's `Nov 27 05:30:40` (dnsmasq, unbound's `log-time-ascii`): local time without a year, taken
///   as the latest such time not more than a day after `now` (a December line read in January).
/// - BIND's `27-Nov-2026 05:34:05.180` (`print-time yes`), local.
/// - ISO 8601 `2026-11-27T05:34:35.836Z`, with an offset, or without one (local: BIND's `iso8601`).
/// - unbound's `[1795757560]`: seconds since 1970.
public struct LogClock: Sendable {
  private let now: Date
  /// `now`'s year, in the time zone (reading it from a `Calendar` for each line was an eighth of `hits`).
  private let year: Int
  private let calendar: Calendar
  private let utc: Calendar
  private var hours: [Int: Double] = [:]
  private var utcHours: [Int: Double] = [:]

  /// A clock that reads local times in `timeZone` and infers missing years from `now`.
  public init(now: Date = Date(), timeZone: TimeZone = .current) {
    self.now = now
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
    year = calendar.component(.year, from: now)
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(secondsFromGMT: 0)!
    self.utc = utc
  }

  static let months: [UInt32: Int] = {
    var table: [UInt32: Int] = [:]
    for (index, name) in ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
      .enumerated()
    {
      let bytes = Array(name.utf8)
      table[UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16] = index + 1
    }
    return table
  }()

  static func month(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    guard index + 3 <= bytes.count else { return nil }
    let key = UInt32(bytes[index] | 0x20) | UInt32(bytes[index + 1] | 0x20) << 8 | UInt32(bytes[index + 2] | 0x20) << 16
    return months[key]
  }

  static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, spaces: Bool = false) -> Int? {
    guard range.upperBound <= bytes.count, !range.isEmpty else { return nil }
    var value = 0
    var digits = 0
    for index in range {
      let byte = bytes[index]
      if byte >= 0x30 && byte <= 0x39 {
        value = value * 10 + Int(byte - 0x30)
        digits += 1
      } else if !(spaces && byte == 0x20 && digits == 0) {
        return nil
      }
    }
    return digits > 0 ? value : nil
  }

  /// The seconds since 1970 of a local time (the hour's start converted once, then cached).
  mutating func local(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Date? {
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60 else { return nil }
    let key = ((year * 13 + month) * 32 + day) * 24 + hour
    if let start = hours[key] { return Date(timeIntervalSince1970: start + Double(minute * 60) + second) }
    guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour)) else {
      return nil
    }
    if hours.count > 10_000 { hours.removeAll(keepingCapacity: true) }
    hours[key] = date.timeIntervalSince1970
    return Date(timeIntervalSince1970: date.timeIntervalSince1970 + Double(minute * 60) + second)
  }

  /// `Nov 27 05:30:40` (or `Nov  7`, `Nov 07`) at the start of `bytes`: the date and the index after it.
  public mutating func syslog(_ bytes: UnsafeBufferPointer<UInt8>) -> (Date, Int)? {
    guard bytes.count >= 15, bytes[3] == 0x20, bytes[6] == 0x20, bytes[9] == 0x3A, bytes[12] == 0x3A,
      let month = Self.month(bytes, at: 0), let day = Self.number(bytes, 4..<6, spaces: true),
      let hour = Self.number(bytes, 7..<9), let minute = Self.number(bytes, 10..<12),
      let second = Self.number(bytes, 13..<15)
    else { return nil }
    guard var date = local(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second))
    else { return nil }
    if date > now.addingTimeInterval(86_400),
      let earlier = local(year: year - 1, month: month, day: day, hour: hour, minute: minute, second: Double(second))
    {
      date = earlier
    }
    return (date, 15)
  }

  /// BIND's `27-Nov-2026 05:34:05.180`: the date and the index after it.
  public mutating func bind(_ bytes: UnsafeBufferPointer<UInt8>) -> (Date, Int)? {
    guard bytes.count >= 24, bytes[2] == 0x2D, bytes[6] == 0x2D, bytes[11] == 0x20, bytes[14] == 0x3A,
      bytes[17] == 0x3A, bytes[20] == 0x2E,
      let day = Self.number(bytes, 0..<2), let month = Self.month(bytes, at: 3), let year = Self.number(bytes, 7..<11),
      let hour = Self.number(bytes, 12..<14), let minute = Self.number(bytes, 15..<17),
      let second = Self.number(bytes, 18..<20), let millis = Self.number(bytes, 21..<24)
    else { return nil }
    guard
      let date = local(
        year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second) + Double(millis) / 1000)
    else { return nil }
    return (date, 24)
  }

  /// `2026-11-27T05:34:35.836Z`, `…+01:00` or without a zone (local): the date and the index after it.
  public mutating func iso(_ bytes: UnsafeBufferPointer<UInt8>) -> (Date, Int)? {
    guard bytes.count >= 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20,
      bytes[13] == 0x3A, bytes[16] == 0x3A,
      let year = Self.number(bytes, 0..<4), let month = Self.number(bytes, 5..<7), let day = Self.number(bytes, 8..<10),
      let hour = Self.number(bytes, 11..<13), let minute = Self.number(bytes, 14..<16),
      let whole = Self.number(bytes, 17..<19)
    else { return nil }
    var index = 19
    var second = Double(whole)
    if index < bytes.count, bytes[index] == 0x2E {
      var scale = 0.1
      index += 1
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        second += Double(bytes[index] - 0x30) * scale
        scale /= 10
        index += 1
      }
    }
    // A zone: Z, or ±HH:MM; none means local time.
    var offset: Int?
    if index < bytes.count, bytes[index] == 0x5A {
      offset = 0
      index += 1
    } else if index + 6 <= bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D, bytes[index + 3] == 0x3A,
      let hours = Self.number(bytes, index + 1..<index + 3), let minutes = Self.number(bytes, index + 4..<index + 6)
    {
      offset = (hours * 60 + minutes) * 60 * (bytes[index] == 0x2D ? -1 : 1)
      index += 6
    }
    guard let offset else {
      return local(year: year, month: month, day: day, hour: hour, minute: minute, second: second).map { ($0, index) }
    }
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60 else { return nil }
    let key = ((year * 13 + month) * 32 + day) * 24 + hour
    let start: Double
    if let known = utcHours[key] {
      start = known
    } else {
      guard let date = utc.date(from: DateComponents(year: year, month: month, day: day, hour: hour)) else {
        return nil
      }
      if utcHours.count > 10_000 { utcHours.removeAll(keepingCapacity: true) }
      start = date.timeIntervalSince1970
      utcHours[key] = start
    }
    return (Date(timeIntervalSince1970: start + Double(minute * 60) + second - Double(offset)), index)
  }

  /// unbound's `[1795757560]`: the date and the index after it.
  public func epoch(_ bytes: UnsafeBufferPointer<UInt8>) -> (Date, Int)? {
    guard bytes.count > 2, bytes[0] == 0x5B, let close = bytes.firstIndex(of: 0x5D),
      let seconds = Self.number(bytes, 1..<close)
    else { return nil }
    return (Date(timeIntervalSince1970: Double(seconds)), close + 1)
  }
}
