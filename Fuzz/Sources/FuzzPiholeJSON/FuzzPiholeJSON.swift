import Foundation

/// Reads the input as every Pi-hole reply SaneHosts decodes: the lenient `JSONValue` reader of
/// Sources/Pihole/PiholeModels.swift (compiled here from the main package's file), composed the way
/// `PiholeClient` composes it for lists, domains, processed items, search, summary and login replies.
/// Any JSON, or none, must give a value or a `PiholeError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
  let object: [String: Any]
  do {
    object = try JSONValue.object(bytes)
  } catch {
    _ = error.localizedDescription
    return 0
  }
  // GET lists, GET domains.
  let lists = (object["lists"] as? [[String: Any]] ?? []).compactMap(JSONValue.list)
  for list in lists { _ = list.statusText }
  _ = (object["domains"] as? [[String: Any]] ?? []).compactMap(JSONValue.domain)
  // POST lists / domains.
  _ = JSONValue.processed(object)
  // GET search.
  let search = object["search"] as? [String: Any] ?? [:]
  let domains = (search["domains"] as? [[String: Any]] ?? []).compactMap(JSONValue.domain)
  let gravity = (search["gravity"] as? [[String: Any]] ?? []).compactMap { item -> PiholeSearch.Match? in
    guard let address = JSONValue.string(item["address"]) else { return nil }
    return PiholeSearch.Match(
      address: address, entry: JSONValue.string(item["domain"]) ?? "example.com",
      type: JSONValue.string(item["type"]) ?? "block")
  }
  _ = PiholeSearch(domains: domains, gravity: gravity).blocks
  // Summary: info/version, dns/blocking, stats/summary.
  var summary = PiholeSummary()
  let version = object["version"] as? [String: Any]
  let ftl = (version?["ftl"] as? [String: Any])?["local"] as? [String: Any]
  summary.version = JSONValue.string(ftl?["version"])
  summary.blocking = JSONValue.string(object["blocking"])
  let queries = object["queries"] as? [String: Any]
  let gravityStats = object["gravity"] as? [String: Any]
  summary.totalQueries = JSONValue.int(queries?["total"])
  summary.blockedQueries = JSONValue.int(queries?["blocked"])
  summary.domainsBeingBlocked = JSONValue.int(gravityStats?["domains_being_blocked"])
  if let seconds = JSONValue.int(gravityStats?["last_update"]), seconds > 0 {
    summary.gravityUpdated = Date(timeIntervalSince1970: TimeInterval(seconds))
  }
  // Login.
  let session = object["session"] as? [String: Any]
  _ = JSONValue.bool(session?["valid"])
  _ = JSONValue.bool(session?["totp"])
  _ = JSONValue.string(session?["sid"])
  _ = JSONValue.string(session?["message"])
  // The models are Codable too (the dashboard's JSON): encoding what was read must work.
  do {
    _ = try JSONEncoder().encode(lists)
    _ = try JSONEncoder().encode(summary)
  } catch {
    fatalError("a decoded model does not encode: \(error)")
  }
  return 0
}

/// Traps with the message when the condition fails; unlike `precondition`, the message is kept in
/// release builds, so libFuzzer's crash report says which property broke.
private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError(message()) }
}
