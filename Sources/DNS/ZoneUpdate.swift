/// Changes to one zone sent as dynamic updates (RFC 2136): records to remove and records to add, each
/// message within what a server takes in one.
///
/// A removal names one record exactly (class NONE: only that data goes, the name's other records stay);
/// an addition is a record of class IN. The server applies each message as one transaction with its own
/// serial, so a change is split into as few messages as the size limit allows.
public struct ZoneUpdate: Sendable, Hashable {
  /// The zone changed (`sanehosts.rpz`).
  public var zone: String
  /// Records to remove, each by its name, type and data.
  public var removals: [Record]
  /// Records to add.
  public var additions: [Record]

  /// How many changes one message holds: BIND refused ~8,000 in one ("ran out of space"), and 1,000 fill
  /// most of a TCP message's 65,535 bytes with long names; 500 leaves room for names of 253 bytes.
  public static let changesPerMessage = 500

  /// An update of `zone`.
  public init(zone: String, removals: [Record] = [], additions: [Record] = []) {
    self.zone = zone
    self.removals = removals
    self.additions = additions
  }

  /// Whether nothing changes.
  public var isEmpty: Bool { removals.isEmpty && additions.isEmpty }

  /// The update messages, additions first, at most `changesPerMessage` changes each; ids from `id`.
  ///
  /// Additions go first so that blocking never lapses between two messages: a name blocked before and
  /// after (a record moved to a parent, say) is never without its record while the rest arrives. A name's
  /// records and its `*.` twin's always travel in one message: with only one of them in the zone the name
  /// is an empty node, which stops a parent's wildcard from matching it (BIND answered ten names of a
  /// removed list with their real addresses for 0.6 s between two messages).
  public func messages(firstID id: UInt16) -> [Message] {
    var batches: [[Record]] = []
    var batch: [Record] = []
    for group in Self.groups(additions) + Self.groups(removals.map(Self.removal)) {
      if !batch.isEmpty, batch.count + group.count > Self.changesPerMessage {
        batches.append(batch)
        batch = []
      }
      batch += group
    }
    if !batch.isEmpty { batches.append(batch) }
    return batches.enumerated().map { index, changes in
      Message(
        id: id &+ UInt16(truncatingIfNeeded: index), flags: Message.Flags(opcode: Message.updateOpcode),
        questions: [Question(name: zone, type: .soa)], authority: changes)
    }
  }

  /// `records` grouped by the name they concern (`*.name` and `name` together), in their order otherwise:
  /// each group goes into one message.
  static func groups(_ records: [Record]) -> [[Record]] {
    func base(_ name: String) -> Substring {
      let lowered = Substring(name.lowercased())
      return lowered.hasPrefix("*.") ? lowered.dropFirst(2) : lowered
    }
    var index: [Substring: Int] = [:]
    var groups: [[Record]] = []
    for record in records {
      let key = base(record.name)
      if let at = index[key] {
        groups[at].append(record)
      } else {
        index[key] = groups.count
        groups.append([record])
      }
    }
    return groups
  }

  /// The record that removes exactly `record` (RFC 2136 §2.5.4: class NONE, TTL 0).
  static func removal(_ record: Record) -> Record {
    Record(name: record.name, type: record.type, class: 254, ttl: 0, data: record.data)
  }
}

extension Message {
  /// The opcode of a dynamic update (RFC 2136).
  public static let updateOpcode: UInt8 = 5
}
