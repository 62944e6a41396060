import Foundation

/// When an allow rule for a while ends: read from a duration (`--for 1h30m`) or a time (`--until 18:00`).
public enum RuleEnd {
  /// Why a duration or a time cannot be read.
  public struct Invalid: Error, LocalizedError, Equatable {
    /// The text given.
    public var value: String
    /// What was expected.
    public var expected: String
    /// The message.
    public var errorDescription: String? { "“\(value)” is not \(expected)." }
  }

  /// The longest a rule may last: a year (a rule for longer is one for good).
  public static let longest: TimeInterval = 366 * 86_400

  /// Reads a duration: numbers each followed by a unit, `s`, `m`, `h`, `d` or `w` (`90s`, `30m`, `1h30m`,
  /// `2d`, `1w`); more than zero and at most a year.
  public static func seconds(_ text: String) throws(Invalid) -> TimeInterval {
    let invalid = Invalid(
      value: text, expected: "a duration such as 30m, 1h, 1h30m, 2d or 1w (s, m, h, d, w), up to a year")
    let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
    var total: TimeInterval = 0
    var number = ""
    var usedUnits = Set<Character>()
    for character in text.trimmingCharacters(in: .whitespaces).lowercased() {
      if character.isASCII && character.isNumber {
        number.append(character)
        guard number.count <= 9 else { throw invalid }
      } else if let unit = units[character], let value = Double(number), usedUnits.insert(character).inserted {
        total += value * unit
        number = ""
      } else {
        throw invalid
      }
    }
    guard number.isEmpty, total > 0, total <= longest else { throw invalid }
    return total
  }

  /// Reads a time: ISO 8601 with a zone (`2026-12-01T18:00:00Z`), a local date and time
  /// (`2026-12-01 18:00`, `2026-12-01T18:00`), or a local time of day (`18:00`, `18:00:30`: the next such
  /// time, tomorrow when it has passed today). It must be after `now` and within a year.
  public static func date(_ text: String, now: Date, timeZone: TimeZone = .current) throws(Invalid) -> Date {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let invalid = Invalid(
      value: text,
      expected: "a time to come (within a year) such as 18:00, 2026-12-01 18:00 or 2026-12-01T18:00:00Z")
    guard let date = parse(trimmed, now: now, timeZone: timeZone), date > now,
      date.timeIntervalSince(now) <= longest
    else { throw invalid }
    return date
  }

  static func parse(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
    let iso = ISO8601DateFormatter()
    if let date = iso.date(from: text) { return date }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.calendar = calendar
    for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    for format in ["HH:mm:ss", "HH:mm"] {
      formatter.dateFormat = format
      guard let time = formatter.date(from: text) else { continue }
      let parts = calendar.dateComponents([.hour, .minute, .second], from: time)
      return calendar.nextDate(after: now, matching: parts, matchingPolicy: .strict, direction: .forward)
    }
    return nil
  }

  /// How long until `date`, as `in 59 min`, `in 3 h 5 min`, `in 2 days`; `now` when it has come.
  public static func remaining(until date: Date, now: Date) -> String {
    let seconds = Int(date.timeIntervalSince(now).rounded(.up))
    guard seconds > 0 else { return "now" }
    if seconds < 60 { return "in \(seconds) s" }
    let minutes = (seconds + 59) / 60
    if minutes < 60 { return "in \(minutes) min" }
    if minutes < 48 * 60 {
      return minutes % 60 == 0 ? "in \(minutes / 60) h" : "in \(minutes / 60) h \(minutes % 60) min"
    }
    return "in \(minutes / 1440) days"
  }
}
