import DNS

extension PrimaryZone {
  /// One record of the policy zone as the update compares it: the owner (absolute, lower case, no final
  /// dot) and the CNAME target (`.` for NXDOMAIN, `rpz-passthru` for an exception).
  struct PolicyRecord: Hashable, Comparable {
    var owner: String
    var target: String

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.owner, lhs.target) < (rhs.owner, rhs.target) }

    /// The record sent in an update.
    var record: Record { Record(name: owner, ttl: 300, data: .cname(target)) }

    init(owner: String, target: String) {
      self.owner = owner.lowercased()
      self.target = target.count > 1 && target.hasSuffix(".") ? String(target.dropLast()) : target
    }
  }

  /// The dynamic update that turns the zone as rendered in `old` into the zone rendered in `new`: each
  /// record only in `old` removed, each only in `new` added (a zone's SOA, NS, `$TTL` and comments are the
  /// primary's own and never sent; the primary counts its serial up itself).
  public static func update(from old: [UInt8], to new: [UInt8]) -> ZoneUpdate {
    // The lines as written first, as bytes (both renderings write a record the same way), so only the
    // few that differ become records: on 543,000 lines that is most of the work saved.
    let before = Set(recordLines(old))
    let after = Set(recordLines(new))
    return update(
      removedLines: before.subtracting(after).map { String(decoding: $0, as: UTF8.self) },
      addedLines: after.subtracting(before).map { String(decoding: $0, as: UTF8.self) })
  }

  /// The dynamic update of the lines a rendering lost and gained (what `ManagedFile.Change` found when
  /// the file as it was is the copy the primary confirmed); lines that are not records are left out.
  public static func update(removedLines: [String], addedLines: [String]) -> ZoneUpdate {
    ZoneUpdate(
      zone: zone, removals: removedLines.compactMap { policyRecord(Substring($0)) }.sorted().map(\.record),
      additions: addedLines.compactMap { policyRecord(Substring($0)) }.sorted().map(\.record))
  }

  /// The dynamic update that turns the zone the primary serves, as a transfer read it (`records`), into
  /// the zone rendered in `new`.
  public static func update(from records: [Record], to new: [UInt8]) -> ZoneUpdate {
    let before = records.compactMap { record -> PolicyRecord? in
      guard case .cname(let target) = record.data else { return nil }
      return PolicyRecord(owner: record.name, target: target)
    }
    return update(from: Set(before), to: new)
  }

  private static func update(from before: Set<PolicyRecord>, to new: [UInt8]) -> ZoneUpdate {
    let after = Set(recordLines(new).compactMap { policyRecord(Substring(String(decoding: $0, as: UTF8.self))) })
    return ZoneUpdate(
      zone: zone, removals: before.subtracting(after).sorted().map(\.record),
      additions: after.subtracting(before).sorted().map(\.record))
  }

  /// The zone's record lines, as bytes: every line but comments, directives (`$TTL`) and the apex's (`@ …`).
  static func recordLines(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
    text.split(separator: 0x0A).filter { line in
      guard let first = line.first else { return false }
      return first != UInt8(ascii: ";") && first != UInt8(ascii: "$") && first != UInt8(ascii: "@")
    }
  }

  /// The record a line `owner CNAME target` stands for, its owner made absolute under the zone; nil for
  /// any other line (SaneHosts' zones hold only CNAME records).
  static func policyRecord(_ line: Substring) -> PolicyRecord? {
    let fields = line.split(separator: " ")
    guard fields.count == 3, fields[1] == "CNAME" else { return nil }
    return PolicyRecord(owner: "\(fields[0]).\(zone)", target: String(fields[2]))
  }
}
