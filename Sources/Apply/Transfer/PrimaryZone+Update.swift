import DNS

extension PrimaryZone {
  /// The dynamic update that turns the zone as rendered in `old` into the zone rendered in `new`: each
  /// record line only in `old` removed, each only in `new` added (a zone's SOA, NS, `$TTL` and comments
  /// are the primary's own and never sent; the primary counts its serial up itself).
  ///
  /// Lines are compared as written, so the same rendering of the same names is no change at all.
  public static func update(from old: [UInt8], to new: [UInt8]) -> ZoneUpdate {
    let before = Set(recordLines(old))
    let after = Set(recordLines(new))
    return ZoneUpdate(
      zone: zone, removals: before.subtracting(after).sorted().compactMap(record),
      additions: after.subtracting(before).sorted().compactMap(record))
  }

  /// The zone's record lines: every line but comments, directives (`$TTL`) and the apex's (`@ …`).
  static func recordLines(_ text: [UInt8]) -> [Substring] {
    String(decoding: text, as: UTF8.self).split(separator: "\n").filter { line in
      guard let first = line.first else { return false }
      return first != ";" && first != "$" && first != "@"
    }
  }

  /// The record a line `owner CNAME target` stands for, its owner made absolute under the zone; nil for
  /// any other line (SaneHosts' zones hold only CNAME records).
  static func record(_ line: Substring) -> Record? {
    let fields = line.split(separator: " ")
    guard fields.count == 3, fields[1] == "CNAME" else { return nil }
    return Record(name: "\(fields[0]).\(zone)", ttl: 300, data: .cname(String(fields[2])))
  }
}
