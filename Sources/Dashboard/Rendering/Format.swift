import Foundation

/// How the pages write ages, dates and times for people.
enum Format {
  /// "3 h ago", "2 days ago", "never".
  static func age(_ date: Date?, now: Date = Date()) -> String {
    guard let date else { return "never" }
    let seconds = max(0, now.timeIntervalSince(date))
    switch seconds {
    case ..<90: return "just now"
    case ..<5400: return "\(Int(seconds / 60)) min ago"
    case ..<129_600: return "\(Int(seconds / 3600)) h ago"
    default: return "\(Int(seconds / 86_400)) days ago"
    }
  }

  /// A date for people, in UTC: 2026-11-22 23:30.
  static func date(_ date: Date) -> String {
    date.formatted(
      Date.VerbatimFormatStyle(
        format:
          "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)",
        timeZone: TimeZone(identifier: "UTC")!, calendar: Calendar(identifier: .gregorian))) + " UTC"
  }

  /// A time of day on this machine's clock, as its DNS server logs it: 14:05:09.
  static func time(_ date: Date) -> String {
    date.formatted(
      Date.VerbatimFormatStyle(
        format:
          "\(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
        timeZone: .current, calendar: Calendar(identifier: .gregorian)))
  }

  /// A percentage with one decimal: "37.8".
  static func decimal(_ value: Double) -> String { String(format: "%.1f", value) }
}
