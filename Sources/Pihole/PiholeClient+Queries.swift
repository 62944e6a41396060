import Foundation
import NIOHTTP1

/// One query of a Pi-hole's log (`GET /api/queries`), as FTL v6 gives it.
public struct PiholeQuery: Sendable, Hashable {
  /// The row's id: ids grow with arrival and go on across restarts.
  public var id: Int
  /// When it was asked.
  public var time: Date
  /// The record type (`A`, `AAAA`, `HTTPS`…; `N/A` for types FTL does not name).
  public var type: String
  /// FTL's status (`GRAVITY`, `FORWARDED`, `CACHE`…).
  public var status: String
  /// The name asked, lower-cased (`hidden` at privacy level 1 or more).
  public var domain: String
  /// The client's address.
  public var client: String?

  /// The statuses FTL counts as blocked (`is_blocked()`): its lists and rules (`GRAVITY`, `REGEX`,
  /// `DENYLIST`, their `_CNAME` forms for a blocked CNAME target), the upstream's blocks (`EXTERNAL_BLOCKED_*`),
  /// special domains and a busy gravity database.
  public static let blockedStatuses: Set<String> = [
    "GRAVITY", "REGEX", "DENYLIST", "EXTERNAL_BLOCKED_IP", "EXTERNAL_BLOCKED_NULL", "EXTERNAL_BLOCKED_NXRA",
    "GRAVITY_CNAME", "REGEX_CNAME", "DENYLIST_CNAME", "DBBUSY", "SPECIAL_DOMAIN", "EXTERNAL_BLOCKED_EDE15",
  ]

  /// Whether FTL blocked it.
  public var isBlocked: Bool { Self.blockedStatuses.contains(status) }
}

extension PiholeClient {
  /// Every query of the log from `from` (inclusive) to `until` (exclusive), newest first, a page of
  /// `pageSize` at a time on this client's one session, each page handed to `page` as it arrives.
  ///
  /// Paged by id (FTL's `cursor` keeps newer queries out; it is not the next page's start, whatever the
  /// specification says): the first page without a cursor, then each with the cursor just below the
  /// smallest id seen and `start=0`, until a page comes back short or the ids run out. Queries that
  /// arrive meanwhile are left out; none is counted twice.
  public func queries(
    from: Date?, until: Date? = nil, pageSize: Int = 1000, page: ([PiholeQuery]) async throws -> Void
  ) async throws {
    var cursor: Int?
    while true {
      var query: [(String, String)] = [("length", String(pageSize)), ("start", "0")]
      if let from { query.append(("from", String(format: "%.3f", from.timeIntervalSince1970))) }
      if let until { query.append(("until", String(format: "%.3f", until.timeIntervalSince1970))) }
      if let cursor { query.append(("cursor", String(cursor))) }
      let (_, data) = try await send(.GET, "queries", query: query)
      let rows = (try JSONValue.object(data)["queries"] as? [[String: Any]] ?? []).compactMap(Self.query)
      guard !rows.isEmpty else { return }
      try await page(rows)
      guard let smallest = rows.map(\.id).min(), smallest > 0, rows.count >= pageSize else { return }
      cursor = smallest - 1
    }
  }

  /// A row of `/api/queries`; nil when it lacks an id, a time or a domain. Numbers may come as integers
  /// or doubles (FTL prints a whole double as an integer).
  static func query(_ row: [String: Any]) -> PiholeQuery? {
    guard let id = (row["id"] as? NSNumber)?.intValue, let time = (row["time"] as? NSNumber)?.doubleValue,
      let domain = row["domain"] as? String
    else { return nil }
    let client = (row["client"] as? [String: Any])?["ip"] as? String
    return PiholeQuery(
      id: id, time: Date(timeIntervalSince1970: time), type: row["type"] as? String ?? "N/A",
      status: row["status"] as? String ?? "UNKNOWN", domain: domain.lowercased(), client: client)
  }
}
