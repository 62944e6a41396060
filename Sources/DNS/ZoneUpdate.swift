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
  /// after (a record moved to a parent, say) is never without its record while the rest arrives.
  public func messages(firstID id: UInt16) -> [Message] {
    let changes = additions + removals.map(Self.removal)
    return stride(from: 0, to: changes.count, by: Self.changesPerMessage).enumerated().map { index, start in
      Message(
        id: id &+ UInt16(truncatingIfNeeded: index), flags: Message.Flags(opcode: Message.updateOpcode),
        questions: [Question(name: zone, type: .soa)],
        authority: Array(changes[start..<min(start + Self.changesPerMessage, changes.count)]))
    }
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
