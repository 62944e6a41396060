import Foundation

/// A zone's SOA serial, compared and advanced in RFC 1982 serial number arithmetic.
///
/// A new zone's serial is the time in seconds since 1970 (mod 2^32); a changed zone's is that time when
/// it is greater than the previous serial, else the previous serial plus one. So every change is strictly
/// greater than the one before, however many land in a second, and the scheme keeps working past 2042
/// (where `YYMMDDHHMM` no longer fits 32 bits) and past 2106 (serial arithmetic wraps).
public struct ZoneSerial: Sendable, Hashable {
  /// The serial.
  public var value: UInt32

  /// A serial.
  public init(_ value: UInt32) { self.value = value }

  /// Whether `self` is greater than `other` in RFC 1982 §3.2 arithmetic (undefined pairs, exactly 2^31
  /// apart, are not greater).
  public func isGreater(than other: ZoneSerial) -> Bool {
    let (a, b) = (value, other.value)
    return (a > b && a - b < 1 << 31) || (a < b && b - a > 1 << 31)
  }

  /// The serial of a zone written at `date`: after `previous`, strictly greater than it.
  public static func next(after previous: ZoneSerial?, at date: Date) -> ZoneSerial {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let clock = ZoneSerial(UInt32(truncatingIfNeeded: Int64(seconds.isFinite ? seconds : 0)))
    guard let previous else { return clock }
    return clock.isGreater(than: previous) ? clock : ZoneSerial(previous.value &+ 1)
  }

  /// The serial of the first `@ IN SOA` line of a zone file's text (its first 64 KiB are enough: the
  /// SOA follows the comment header), or nil when there is none.
  public static func read(from bytes: some Collection<UInt8>) -> ZoneSerial? {
    let head = String(decoding: bytes.prefix(1 << 16), as: UTF8.self)
    for line in head.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("@ IN SOA ") {
      // @ IN SOA primary. mailbox. SERIAL refresh retry expire minimum
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count >= 6, let serial = UInt32(fields[5]) else { return nil }
      return ZoneSerial(serial)
    }
    return nil
  }

  /// The serial of the zone file at `path`, or nil when it is missing or has none.
  public static func read(path: String) -> ZoneSerial? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 1 << 16) else { return nil }
    return read(from: data)
  }
}
