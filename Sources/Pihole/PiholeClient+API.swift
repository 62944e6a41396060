import Foundation
import NIOCore
import NIOHTTP1

extension PiholeClient {
  /// The adlists (`type`: `block`, `allow`, or nil for both).
  public func lists(type: String? = nil) async throws -> [PiholeList] {
    let (_, data) = try await send(.GET, "lists", query: type.map { [("type", $0)] } ?? [])
    return (try JSONValue.object(data)["lists"] as? [[String: Any]] ?? []).compactMap(JSONValue.list)
  }

  /// Adds adlists; the items the Pi-hole refused (a duplicate, for one) are in `errors` even though the
  /// request itself succeeded.
  public func addLists(_ addresses: [String], type: String = "block", comment: String?) async throws -> PiholeProcessed
  {
    var body: [String: Any] = ["address": addresses, "enabled": true, "groups": [0]]
    if let comment { body["comment"] = comment }
    let (_, data) = try await send(.POST, "lists", query: [("type", type)], json: body)
    return JSONValue.processed(try JSONValue.object(data))
  }

  /// Waits until FTL accepts writes again after a gravity run (it reloads the new database and refuses
  /// writes for about two seconds): rewrites `list` unchanged until that succeeds (`send` retries the
  /// read-only refusal for up to ten seconds).
  public func waitUntilWritable(list: PiholeList) async throws {
    var body: [String: Any] = ["type": list.type, "enabled": list.enabled, "groups": [0]]
    body["comment"] = list.comment ?? NSNull()
    _ = try await send(.PUT, "lists/\(Self.encode(list.address))", query: [("type", list.type)], json: body)
  }

  /// Removes an adlist.
  public func removeList(_ address: String, type: String = "block") async throws {
    _ = try await send(.DELETE, "lists/\(Self.encode(address))", query: [("type", type)])
  }

  /// The allow or deny rules of one kind.
  public func domains(type: String, kind: String) async throws -> [PiholeDomain] {
    let (_, data) = try await send(.GET, "domains/\(type)/\(kind)")
    return (try JSONValue.object(data)["domains"] as? [[String: Any]] ?? []).compactMap(JSONValue.domain)
  }

  /// Adds allow or deny rules (`kind`: `exact` or `regex`).
  public func addDomains(_ domains: [String], type: String, kind: String, comment: String?) async throws
    -> PiholeProcessed
  {
    // FTL stores exact names lower-cased: send them so, so that what is added can be removed as written.
    let domains = kind == "exact" ? domains.map { $0.lowercased() } : domains
    var body: [String: Any] = ["domain": domains, "enabled": true, "groups": [0]]
    if let comment { body["comment"] = comment }
    let (_, data) = try await send(.POST, "domains/\(type)/\(kind)", json: body)
    return JSONValue.processed(try JSONValue.object(data))
  }

  /// Removes an allow or deny rule.
  public func removeDomain(_ domain: String, type: String, kind: String) async throws {
    let domain = kind == "exact" ? domain.lowercased() : domain
    _ = try await send(.DELETE, "domains/\(type)/\(kind)/\(Self.encode(domain))")
  }

  /// Which rules and adlists match a name exactly.
  public func search(_ domain: String) async throws -> PiholeSearch {
    let (_, data) = try await send(
      .GET, "search/\(Self.encode(domain))", query: [("partial", "false"), ("N", "100")])
    return PiholeReply.search(try JSONValue.object(data), name: domain)
  }

  /// Searches `names` strictly one after another on this session, reporting each finished name to
  /// `progress` (done, total).
  ///
  /// Never concurrently: FTL v6.4.1 shares one prepared statement between concurrent searches, and a few
  /// hundred of them make the daemon segfault or hang with DNS dead (a search takes about 8 ms, so the
  /// registry's 131 names take about a second).
  public func searchAll(_ names: [String], progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws
    -> [String: PiholeSearch]
  {
    var results: [String: PiholeSearch] = [:]
    for (index, name) in names.enumerated() {
      try Task.checkCancellation()
      results[name] = try await search(name)
      progress(index + 1, names.count)
    }
    return results
  }

  /// Version and counts; parts the Pi-hole cannot give (a fresh install answers 500 for the version) are nil.
  public func summary() async throws -> PiholeSummary {
    let version = try? await send(.GET, "info/version")
    let blocking = try? await send(.GET, "dns/blocking")
    let (_, stats) = try await send(.GET, "stats/summary")
    return PiholeReply.summary(
      version: version.flatMap { try? JSONValue.object($0.1) },
      blocking: blocking.flatMap { try? JSONValue.object($0.1) },
      stats: try JSONValue.object(stats))
  }

  /// Rebuilds gravity and passes each line of its log to `line` as it arrives (escape sequences
  /// stripped). The request asks for `Connection: close`: the daemon writes stray JSON after the stream,
  /// which would break the next request on a reused connection.
  public func gravity(line: @Sendable (String) -> Void) async throws {
    try await stream(.POST, "action/gravity") { chunk in
      for text in PiholeReply.logLines(chunk) { line(text) }
    }
  }
}
