import Foundation

/// Dates in the form HTTP uses (RFC 9110 IMF-fixdate), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
  /// Formats a date as an HTTP date.
  public static func string(from date: Date) -> String {
    date.formatted(
      Date.VerbatimFormatStyle(
        format:
          "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .padded(4)) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
        locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!,
        calendar: Calendar(identifier: .gregorian)))
  }
}
