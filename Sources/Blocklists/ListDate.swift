import Foundation

/// The date a list gives itself in its header comments (`# Last modified: 24 Jul 2022 12:25 UTC`,
/// `! Version: 2022.0724.122534`, `# Date: 2024-01-02`), for telling a frozen mirror that still
/// answers from a list that is maintained.
public enum ListDate {
  /// The keys that introduce a list's own date, lower-cased.
  static let keys = [
    "last modified", "last-modified", "last updated", "updated", "date", "version", "generated",
    "timeupdated",
  ]

  /// The first date found in the leading comment lines of `bytes` (the start of a list), or nil. Dates
  /// before 1995 or more than a day ahead of `now` are ignored.
  public static func find(in bytes: some Collection<UInt8>, now: Date = Date()) -> Date? {
    var lines = 0
    for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lines += 1
      if lines > 80 { break }
      var line = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
      if line.isEmpty || line.hasPrefix("[") { continue }
      guard let first = line.first, "#!;".contains(first) else { break }  // the header ends at the first entry
      let text = line.drop { "#!; \t".contains($0) }
      guard let colon = text.firstIndex(of: ":") else { continue }
      let key = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      guard keys.contains(key) else { continue }
      let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      if let date = parse(value), date.timeIntervalSince1970 >= 788_918_400, date <= now.addingTimeInterval(86_400) {
        return date
      }
    }
    return nil
  }

  /// A date written in one of the ways lists write it; nil when the value holds none.
  ///
  /// Read by a small scanner rather than Swift Regex literals, which are compiled again at each
  /// evaluation (a first update read its 10 lists' headers in about 3 % of its time).
  static func parse(_ value: String) -> Date? {
    let bytes = Array(value.utf8)
    // The first form the value has decides, even when its date is impossible (2024-02-31).
    for form in [isoDate, compactDate, dayMonthYear, monthDayYear] {
      if let found = form(bytes) { return found }
    }
    return nil
  }

  // Each form gives nil when the value does not have it, else its date (nil when impossible).

  /// 2024-01-02, 2024-01-02T03:04:05Z, 2024-01-02 03:04:05, anywhere in the value.
  private static func isoDate(_ bytes: [UInt8]) -> Date?? {
    for start in bytes.indices {
      var scan = DateScanner(bytes: bytes, at: start)
      guard let year = scan.digits(4...4), scan.skip("-"), let month = scan.digits(2...2), scan.skip("-"),
        let day = scan.digits(2...2)
      else { continue }
      var time = (0, 0, 0)
      var clock = scan
      if clock.skip("T") || clock.skip(" "), let hour = clock.digits(2...2), clock.skip(":"),
        let minute = clock.digits(2...2)
      {
        time = (hour, minute, 0)
        if clock.skip(":"), let second = clock.digits(2...2) { time.2 = second }
      }
      return date(year, month, day, time.0, time.1, time.2)
    }
    return nil
  }

  /// 2022.0724.122534 (a version made of the date and time), 202207241225, 20220724: the whole first word.
  private static func compactDate(_ bytes: [UInt8]) -> Date?? {
    var scan = DateScanner(bytes: bytes, at: 0)
    guard let year = scan.digits(4...4) else { return nil }
    _ = scan.skip(".")
    guard let month = scan.digits(2...2), let day = scan.digits(2...2) else { return nil }
    var withTime = scan
    _ = withTime.skip(".")
    if let hour = withTime.digits(2...2), let minute = withTime.digits(2...2) {
      var withSeconds = withTime
      if let second = withSeconds.digits(2...2), withSeconds.atWordEnd {
        return date(year, month, day, hour, minute, second)
      }
      if withTime.atWordEnd { return date(year, month, day, hour, minute, 0) }
    }
    return scan.atWordEnd ? date(year, month, day, 0, 0, 0) : nil as Date??
  }

  /// 24 Jul 2022 12:25 UTC, So 24. Jul 12:25:34 UTC 2022, Tue, 02 Jan 2024 03:04:05 GMT, 24 July 2022.
  private static func dayMonthYear(_ bytes: [UInt8]) -> Date?? {
    for start in bytes.indices where DateScanner.isDigit(bytes[start]) {
      var scan = DateScanner(bytes: bytes, at: start)
      guard let day = scan.digits(1...2) else { continue }
      _ = scan.skip(".")
      guard scan.spaces(), let name = scan.letters(3...9) else { continue }
      _ = scan.skip(".")
      _ = scan.skip(",")
      guard scan.spaces() else { continue }
      var time: (Int, Int, Int)?
      var year: Int?
      var early = scan
      if let clock = early.clock(), early.spaces() {
        var zone = early
        if zone.capitals(2...4), zone.spaces() { early = zone }
        if let found = early.digits(4...4) { (time, year, scan) = (clock, found, early) }
      }
      if year == nil {
        guard let found = scan.digits(4...4) else { continue }
        year = found
        var late = scan
        if late.spaces(), let clock = late.clock() { time = clock }
      }
      guard let month = month(name) else { return .some(nil) }
      return date(year, month, day, time?.0 ?? 0, time?.1 ?? 0, time?.2 ?? 0)
    }
    return nil
  }

  /// January 2, 2024.
  private static func monthDayYear(_ bytes: [UInt8]) -> Date?? {
    for start in bytes.indices where DateScanner.isLetter(bytes[start]) {
      var scan = DateScanner(bytes: bytes, at: start)
      guard let name = scan.letters(3...9, umlauts: false) else { continue }
      _ = scan.skip(".")
      guard scan.spaces(), let day = scan.digits(1...2) else { continue }
      _ = scan.skip(",")
      guard scan.spaces(), let year = scan.digits(4...4) else { continue }
      guard let month = month(name) else { return .some(nil) }
      return date(year, month, day, 0, 0, 0)
    }
    return nil
  }

  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]
  /// German forms that differ in their first three letters (lists generated on German machines).
  private static let germanMonths = ["mär": 3, "mai": 5, "okt": 10, "dez": 12]

  private static func month(_ name: String) -> Int? {
    let prefix = String(name.lowercased().prefix(3))
    if let index = months.firstIndex(of: prefix) { return index + 1 }
    return germanMonths[prefix]
  }

  private static func date(_ year: Int?, _ month: Int?, _ day: Int?, _ hour: Int?, _ minute: Int?, _ second: Int?)
    -> Date?
  {
    guard let year, let month, let day, (1...12).contains(month), (1...31).contains(day) else { return nil }
    var components = DateComponents()
    components.year = year
    components.month = month
    components.day = day
    components.hour = min(hour ?? 0, 23)
    components.minute = min(minute ?? 0, 59)
    components.second = min(second ?? 0, 59)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
    return date
  }
}
