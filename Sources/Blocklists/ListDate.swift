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
  static func parse(_ value: String) -> Date? {
    // 2024-01-02, 2024-01-02T03:04:05Z, 2024-01-02 03:04:05
    if let match = value.firstMatch(of: /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/) {
      return date(
        Int(match.1), Int(match.2), Int(match.3), Int(match.4 ?? "0"), Int(match.5 ?? "0"), Int(match.6 ?? "0"))
    }
    // 2022.0724.122534 (a version made of the date and time), 202207241225, 20220724
    if let match = value.firstMatch(of: /^(\d{4})\.?(\d{2})(\d{2})(?:\.?(\d{2})(\d{2})(\d{2})?)?\b/) {
      return date(
        Int(match.1), Int(match.2), Int(match.3), Int(match.4 ?? "0"), Int(match.5 ?? "0"), Int(match.6 ?? "0"))
    }
    // 24 Jul 2022 12:25 UTC, So 24. Jul 12:25:34 UTC 2022, Tue, 02 Jan 2024 03:04:05 GMT, 24 July 2022
    if let match = value.firstMatch(
      of:
        /(\d{1,2})\.?\s+([A-Za-zäÄ]{3,9})\.?,?\s+(?:(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(?:[A-Z]{2,4}\s+)?)?(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/
    ) {
      guard let month = month(String(match.2)) else { return nil }
      return date(
        Int(match.6), month, Int(match.1), Int(match.3 ?? match.7 ?? "0"), Int(match.4 ?? match.8 ?? "0"),
        Int(match.5 ?? match.9 ?? "0"))
    }
    // January 2, 2024
    if let match = value.firstMatch(of: /([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})/),
      let month = month(String(match.1))
    {
      return date(Int(match.3), month, Int(match.2), 0, 0, 0)
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
