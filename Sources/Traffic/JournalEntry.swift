import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The fields of one `journalctl -o json` line a query log needs, read straight from its bytes.
///
/// Each line is a flat JSON object whose values are strings, or arrays of byte values where journald kept
/// bytes that are not UTF-8 (`null` for a field too large to show). Scanning for the three fields costs a
/// fraction of decoding the whole object with `JSONSerialization` (measured in docs/performance.md).
struct JournalEntry: Equatable {
  /// The message's bytes.
  var message: [UInt8]
  /// The entry's time, in microseconds since 1970.
  var micros: Int64
  /// The process id's digits (`_PID`, else `SYSLOG_PID`; empty when neither).
  var pid: [UInt8]

  /// The entry of one JSON line; nil when it is not a JSON object with a message and a time.
  init?(json: ArraySlice<UInt8>) {
    var scanner = Scanner(bytes: json)
    var message: [UInt8]?
    var micros: Int64?
    var pid: [UInt8] = []
    var syslogPID: [UInt8] = []
    guard scanner.skip(0x7B) else { return nil }  // {
    if scanner.skip(0x7D) { return nil }  // }: empty
    repeat {
      guard let key = scanner.string(), scanner.skip(0x3A) else { return nil }
      switch key {
      case Array("MESSAGE".utf8):
        guard let value = scanner.value() else { return nil }
        message = value
      case Array("__REALTIME_TIMESTAMP".utf8):
        guard let value = scanner.value() else { return nil }
        micros = Int64(String(decoding: value, as: UTF8.self))
      case Array("_PID".utf8):
        guard let value = scanner.value() else { return nil }
        pid = value
      case Array("SYSLOG_PID".utf8):
        guard let value = scanner.value() else { return nil }
        syslogPID = value
      default: guard scanner.skipValue() else { return nil }
      }
    } while scanner.skip(0x2C)  // ,
    guard scanner.skip(0x7D), let message, let micros else { return nil }
    self.message = message
    self.micros = micros
    self.pid = pid.isEmpty ? syslogPID : pid
  }

  /// The time as ISO 8601 in UTC to the millisecond (`2026-11-28T15:25:28.632Z`), without a formatter.
  var stamp: [UInt8] {
    var seconds = time_t(micros / 1_000_000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    var out: [UInt8] = []
    out.reserveCapacity(24)
    func digits(_ value: Int, _ count: Int) {
      var divisor = 1
      for _ in 1..<count { divisor *= 10 }
      var rest = value
      for _ in 0..<count {
        out.append(UInt8(0x30 + (rest / divisor) % 10))
        rest %= divisor
        divisor = max(1, divisor / 10)
      }
    }
    digits(Int(parts.tm_year) + 1900, 4)
    out.append(0x2D)
    digits(Int(parts.tm_mon) + 1, 2)
    out.append(0x2D)
    digits(Int(parts.tm_mday), 2)
    out.append(0x54)
    digits(Int(parts.tm_hour), 2)
    out.append(0x3A)
    digits(Int(parts.tm_min), 2)
    out.append(0x3A)
    digits(Int(parts.tm_sec), 2)
    out.append(0x2E)
    digits(Int((micros % 1_000_000) / 1000), 3)
    out.append(0x5A)
    return out
  }

  /// A cursor over a JSON line.
  struct Scanner {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      index = bytes.startIndex
    }

    mutating func spaces() {
      while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// Skips `byte` (after spaces); false when it is not next.
    mutating func skip(_ byte: UInt8) -> Bool {
      spaces()
      guard index < bytes.endIndex, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    /// A string's bytes, its escapes decoded.
    mutating func string() -> [UInt8]? {
      guard skip(0x22) else { return nil }
      var out: [UInt8] = []
      while index < bytes.endIndex {
        let byte = bytes[index]
        index += 1
        if byte == 0x22 { return out }
        guard byte == 0x5C else {
          out.append(byte)
          continue
        }
        guard index < bytes.endIndex else { return nil }
        let escape = bytes[index]
        index += 1
        switch escape {
        case 0x6E: out.append(0x0A)
        case 0x74: out.append(0x09)
        case 0x72: out.append(0x0D)
        case 0x62: out.append(0x08)
        case 0x66: out.append(0x0C)
        case 0x75:
          guard var scalar = hex4() else { return nil }
          // A surrogate pair: the low half follows as another \u.
          if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.endIndex, bytes[index] == 0x5C,
            bytes[index + 1] == 0x75
          {
            index += 2
            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
        default: out.append(escape)  // \" \\ \/
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      guard index + 4 <= bytes.endIndex else { return nil }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index] | 0x20
        let digit: UInt8
        if byte >= 0x30 && byte <= 0x39 {
          digit = byte - 0x30
        } else if byte >= 0x61 && byte <= 0x66 {
          digit = byte - 0x61 + 10
        } else {
          return nil
        }
        value = value << 4 | UInt32(digit)
        index += 1
      }
      return value
    }

    /// A field's value as bytes: a string's, an array of byte values', or empty for null.
    mutating func value() -> [UInt8]? {
      spaces()
      guard index < bytes.endIndex else { return nil }
      switch bytes[index] {
      case 0x22: return string()
      case 0x5B:
        index += 1
        var out: [UInt8] = []
        if skip(0x5D) { return out }
        repeat {
          spaces()
          var number = 0
          var seen = false
          while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            number = number * 10 + Int(bytes[index] - 0x30)
            index += 1
            seen = true
          }
          guard seen, number < 256 else { return nil }
          out.append(UInt8(number))
        } while skip(0x2C)
        return skip(0x5D) ? out : nil
      default:
        return skipValue() ? [] : nil
      }
    }

    /// Skips any value: a string, an array, null or a number.
    mutating func skipValue() -> Bool {
      spaces()
      guard index < bytes.endIndex else { return false }
      switch bytes[index] {
      case 0x22: return string() != nil
      case 0x5B: return value() != nil
      default:
        let start = index
        while index < bytes.endIndex, ![0x2C, 0x7D, 0x20].contains(bytes[index]) { index += 1 }
        return index > start
      }
    }
  }
}
