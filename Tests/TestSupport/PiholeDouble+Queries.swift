import Foundation
import Locking

/// `GET /api/queries` as FTL v6.4.1's source answers it (src/api/queries.c; docs/pihole-queries.md):
/// newest first; `cursor` an upper bound on ids, echoed back, or the newest id when none was sent (it
/// is not the next page's start, whatever the specification says); `length` 100 by default, every row
/// when negative, none (counts only) at 0; `start` an offset; `from` inclusive, `until` exclusive;
/// `recordsTotal` every row, `recordsFiltered` the rows matching a filter (and the cursor), else the
/// total; bad numbers ignored, a bad cursor or an unknown status/type a 400; domains matched exactly, or
/// case-insensitively with `*`.
extension PiholeDouble {
  /// A query of the log.
  public struct LoggedQuery: Sendable, Hashable {
    public var id = 0
    /// Seconds since 1970.
    public var time: Double
    public var type: String
    public var status: String
    public var domain: String
    public var client: String
    /// `-(adlist id + 2)` for a gravity match, a domainlist id for a rule, nil otherwise.
    public var listID: Int?
    /// The blocked CNAME target, for the `_CNAME` statuses.
    public var cname: String?

    public init(
      time: Double, type: String = "A", status: String, domain: String, client: String = "192.168.1.20",
      listID: Int? = nil, cname: String? = nil
    ) {
      self.time = time
      self.type = type
      self.status = status
      self.domain = domain
      self.client = client
      self.listID = listID
      self.cname = cname
    }
  }

  static let statuses = [
    "UNKNOWN", "GRAVITY", "FORWARDED", "CACHE", "REGEX", "DENYLIST", "EXTERNAL_BLOCKED_IP", "EXTERNAL_BLOCKED_NULL",
    "EXTERNAL_BLOCKED_NXRA", "GRAVITY_CNAME", "REGEX_CNAME", "DENYLIST_CNAME", "RETRIED", "RETRIED_DNSSEC",
    "IN_PROGRESS", "DBBUSY", "SPECIAL_DOMAIN", "CACHE_STALE", "EXTERNAL_BLOCKED_EDE15",
  ]
  static let types = [
    "A", "AAAA", "ANY", "SRV", "SOA", "PTR", "TXT", "NAPTR", "MX", "DS", "RRSIG", "DNSKEY", "NS", "OTHER", "SVCB",
    "HTTPS",
  ]
  static let blockedStatuses: Set<String> = [
    "GRAVITY", "REGEX", "DENYLIST", "EXTERNAL_BLOCKED_IP", "EXTERNAL_BLOCKED_NULL", "EXTERNAL_BLOCKED_NXRA",
    "GRAVITY_CNAME", "REGEX_CNAME", "DENYLIST_CNAME", "DBBUSY", "SPECIAL_DOMAIN", "EXTERNAL_BLOCKED_EDE15",
  ]

  /// Adds queries to the log, numbering them on from the last id.
  public func log(_ queries: [LoggedQuery]) {
    state.withLock { state in
      for var query in queries {
        query.id = state.queryLog.count
        state.queryLog.append(query)
      }
    }
  }

  /// Whether `value` (with `*` as a wildcard, then case-insensitive) matches `text`.
  static func matches(_ value: String, _ text: String) -> Bool {
    guard value.contains("*") else { return value == text }
    let pattern =
      "^"
      + value.lowercased().split(separator: "*", omittingEmptySubsequences: false)
      .map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: ".*") + "$"
    return text.lowercased().range(of: pattern, options: .regularExpression) != nil
  }

  func queries(_ request: PiholeRequest) -> PiholeReply {
    let log = state.withLock { $0.queryLog }
    let newest = log.last?.id ?? -1
    let parameters = request.query
    var cursor: Int?
    if let text = parameters["cursor"] {
      guard !text.isEmpty else {
        return .error(400, "bad_request", "Requested cursor is invalid", hint: "Parameter empty")
      }
      guard let value = Int(text), value >= 0 else {
        return .error(400, "bad_request", "Requested cursor is invalid", hint: "No digits were found")
      }
      guard value <= newest else {
        return .error(
          400, "bad_request", "Requested cursor is invalid", hint: "Cursor larger than largest database index")
      }
      cursor = value
    }
    // Unknown names of the enumerations are refused; bad numbers are ignored.
    for (name, valid) in [("status", Self.statuses), ("type", Self.types)] {
      if let value = parameters[name], !value.isEmpty, !valid.contains(value.uppercased()) {
        return .error(400, "bad_request", "Requested \(name) is invalid", hint: value)
      }
    }
    let from = parameters["from"].flatMap(Double.init)
    let until = parameters["until"].flatMap(Double.init)
    let length = parameters["length"].flatMap(Int.init) ?? 100
    let start = max(0, parameters["start"].flatMap(Int.init) ?? 0)
    let filtered =
      from != nil || until != nil
      || ["domain", "client_ip", "upstream", "status", "type"].contains {
        !(parameters[$0] ?? "").isEmpty
      }
    let rows = log.reversed().filter { query in
      if let cursor, query.id > cursor { return false }
      if let from, query.time < from { return false }
      if let until, query.time >= until { return false }
      if let domain = parameters["domain"], !domain.isEmpty, !Self.matches(domain, query.domain) { return false }
      if let client = parameters["client_ip"], !client.isEmpty, !Self.matches(client, query.client) { return false }
      if let status = parameters["status"], !status.isEmpty, status.uppercased() != query.status { return false }
      if let type = parameters["type"], !type.isEmpty, type.uppercased() != query.type { return false }
      if parameters["upstream"] == "blocklist", !Self.blockedStatuses.contains(query.status) { return false }
      return true
    }
    let page = rows.dropFirst(start).prefix(length < 0 ? rows.count : length)
    return .json(
      200,
      [
        ("queries", .array(page.map(Self.object))),
        ("cursor", .int(cursor ?? newest)),
        ("recordsTotal", .int(log.count)),
        ("recordsFiltered", .int(filtered ? rows.count : log.count)),
        ("draw", .int(parameters["draw"].flatMap(Int.init) ?? 0)),
      ])
  }

  /// A row as FTL writes it (keys in its order; `reply.time` in seconds, `ede.code` -1 when unknown).
  static func object(_ query: LoggedQuery) -> PiholeJSON {
    let blocked = blockedStatuses.contains(query.status)
    let cached = query.status == "CACHE" || query.status == "CACHE_STALE"
    return .object([
      ("id", .int(query.id)), ("time", .double(query.time)), ("type", .string(query.type)),
      ("status", .string(query.status)), ("dnssec", .string("UNKNOWN")), ("domain", .string(query.domain)),
      ("upstream", blocked || cached ? .null : .string("9.9.9.9#53")),
      ("reply", .object([("type", .string(blocked ? "NXDOMAIN" : "IP")), ("time", .double(0.0123))])),
      ("client", .object([("ip", .string(query.client)), ("name", .null)])),
      ("list_id", query.listID.map { .int($0) } ?? .null),
      ("ede", .object([("code", .int(-1)), ("text", .null)])), ("cname", .nullable(query.cname)),
    ])
  }
}
