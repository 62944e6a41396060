import Foundation

/// One line of `hits --follow`: a query the profile blocks, with its lists, or one the server blocked
/// that no list of the profile names.
public struct FeedItem: Sendable, Codable, Hashable {
  /// When the server logged it (nil when the log line had no time).
  public var time: Date?
  /// The name asked.
  public var name: String
  /// The record type asked (nil for a server's block line).
  public var type: String?
  /// The lists of the profile that block it; empty when only the server blocked it.
  public var lists: [String]
  /// The client, with `--by-client` only.
  public var client: String?
  /// Whether the profile lets the name through now, while what the server runs blocks it (an allow rule
  /// added since the last apply): no Allow button, the apply is what is missing.
  public var notApplied = false

  /// An item of the feed.
  public init(time: Date?, name: String, type: String?, lists: [String], client: String? = nil) {
    self.time = time
    self.name = name
    self.type = type
    self.lists = lists
    self.client = client
  }
}

extension HitCounter {
  /// Counts `event` and tells what the live feed shows of it: a query the profile blocks, or a block
  /// of the server's that the profile does not explain; nil for everything else.
  public mutating func feed(_ event: LogEvent) -> FeedItem? {
    switch event {
    case .query(let time, let name, let type, let client):
      let lists = count(event)
      guard !lists.isEmpty else { return nil }
      var item = FeedItem(
        time: time, name: name, type: type, lists: lists.map { attribution.lists[Int($0)] },
        client: byClient ? client : nil)
      item.notApplied = lastNotApplied
      return item
    case .blocked(let time, let name, let client, let via):
      let lists = count(event)
      // A block through a CNAME's target is shown with the target's lists (the query line had none).
      if via != nil, !lists.isEmpty {
        return FeedItem(
          time: time, name: name, type: nil, lists: lists.map { attribution.lists[Int($0)] },
          client: byClient ? client : nil)
      }
      guard lists.isEmpty else { return nil }
      return FeedItem(time: time, name: name, type: nil, lists: [], client: byClient ? client : nil)
    }
  }
}
