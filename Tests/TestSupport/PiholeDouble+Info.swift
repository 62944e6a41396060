import Foundation
import Locking

extension PiholeDouble {
  /// `GET /api/search/{domain}`: matching domain rules and gravity entries; each gravity item repeats `"type"`.
  func search(_ name: String, _ request: PiholeRequest) -> PiholeReply {
    let partial = request.query["partial"] == "true"
    let limit = request.query["N"].flatMap(Int.init) ?? 20
    let (rules, lists) = state.withLock { ($0.domains, $0.lists) }
    let matches = { (entry: String) in partial ? entry.contains(name) : entry == name }
    let exact = rules.filter { $0.kind == "exact" && matches($0.domain) }
    let regex = rules.filter { rule in
      guard rule.kind == "regex", let expression = try? NSRegularExpression(pattern: rule.domain) else { return false }
      return expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }
    var gravity: [(List, String)] = []
    for list in lists {
      for entry in list.domains where matches(entry) { gravity.append((list, entry)) }
    }
    let shownGravity = gravity.prefix(limit)
    let domainItems: [PiholeJSON] = (exact + regex).prefix(limit).map { rule in
      .object([
        ("domain", .string(rule.domain)), ("type", .string(rule.type)), ("kind", .string(rule.kind)),
        ("comment", .nullable(rule.comment)), ("enabled", .bool(rule.enabled)), ("id", .int(rule.id)),
        ("date_added", .int(rule.dateAdded)), ("date_modified", .int(rule.dateModified)),
        ("groups", .ints(rule.groups)),
      ])
    }
    let gravityItems: [PiholeJSON] = shownGravity.map { list, entry in
      // Observed: the daemon writes "type" twice in each gravity item.
      .object([
        ("domain", .string(entry)), ("type", .string(list.type)), ("address", .string(list.address)),
        ("comment", .nullable(list.comment)), ("enabled", .bool(list.enabled)), ("id", .int(list.id)),
        ("type", .string(list.type)), ("date_added", .int(list.dateAdded)),
        ("date_modified", .int(list.dateModified)), ("date_updated", .int(list.dateUpdated)),
        ("number", .int(list.number)), ("invalid_domains", .int(list.invalidDomains)),
        ("abp_entries", .int(list.abpEntries)), ("status", .int(list.status)), ("groups", .ints(list.groups)),
      ])
    }
    let allow = gravity.filter { $0.0.type == "allow" }.count
    let block = gravity.count - allow
    let results = PiholeJSON.object([
      ("domains", .object([("exact", .int(exact.count)), ("regex", .int(regex.count))])),
      ("gravity", .object([("allow", .int(allow)), ("block", .int(block))])),
      ("total", .int(exact.count + regex.count + gravity.count)),
    ])
    let parameters = PiholeJSON.object([
      ("N", .int(limit)), ("partial", .bool(partial)), ("domain", .string(name)), ("debug", .bool(false)),
    ])
    return .json(
      200,
      [
        (
          "search",
          .object([
            ("domains", .array(domainItems)), ("gravity", .array(gravityItems)), ("results", results),
            ("parameters", parameters),
          ])
        )
      ])
  }

  /// Domains on enabled block lists, as the daemon counts them for gravity.
  private var gravityCount: Int {
    state.withLock { $0.lists.filter { $0.enabled && $0.type == "block" }.reduce(0) { $0 + $1.number } }
  }

  func version() -> PiholeReply {
    let local = { (version: String, hash: String) -> PiholeJSON in
      .object([("version", .string(version)), ("branch", .string("master")), ("hash", .string(hash))])
    }
    let ftl = PiholeJSON.object([
      ("version", .string("v6.4.1")), ("branch", .string("master")), ("hash", .string("4a3b2c1d")),
      ("date", .string("2025-11-20 10:00:00 +0000")),
    ])
    return .json(
      200,
      [
        (
          "version",
          .object([
            ("core", .object([("local", local("v6.3", "a1b2c3d4")), ("remote", local("v6.3", "a1b2c3d4"))])),
            ("web", .object([("local", local("v6.4", "b2c3d4e5")), ("remote", local("v6.4", "b2c3d4e5"))])),
            ("ftl", .object([("local", ftl), ("remote", local("v6.4.1", "4a3b2c1d"))])),
            ("docker", .object([("local", .null), ("remote", .null)])),
          ])
        )
      ])
  }

  func summary() -> PiholeReply {
    let lastUpdate = state.withLock { $0.lastGravity }
    return .json(
      200,
      [
        (
          "queries",
          .object([
            ("total", .int(0)), ("blocked", .int(0)), ("percent_blocked", .double(0)), ("unique_domains", .int(0)),
            ("forwarded", .int(0)), ("cached", .int(0)), ("frequency", .double(0)),
          ])
        ),
        ("clients", .object([("active", .int(0)), ("total", .int(0))])),
        (
          "gravity",
          .object([("domains_being_blocked", .int(gravityCount)), ("last_update", .int(lastUpdate))])
        ),
      ])
  }

  func ftlInfo() -> PiholeReply {
    let (lists, rules) = state.withLock { ($0.lists, $0.domains) }
    let count = { (type: String, kind: String) -> PiholeJSON in
      let matching = rules.filter { $0.type == type && $0.kind == kind }
      return .object([("total", .int(matching.count)), ("enabled", .int(matching.filter(\.enabled).count))])
    }
    let database = PiholeJSON.object([
      ("gravity", .int(gravityCount)), ("groups", .int(1)), ("lists", .int(lists.count)), ("clients", .int(0)),
      ("domains", .object([("allowed", count("allow", "exact")), ("denied", count("deny", "exact"))])),
      ("regex", .object([("allowed", count("allow", "regex")), ("denied", count("deny", "regex"))])),
    ])
    return .json(
      200,
      [
        (
          "ftl",
          .object([
            ("database", database), ("privacy_level", .int(0)), ("query_frequency", .double(0)),
            ("clients", .object([("total", .int(0)), ("active", .int(0))])),
            ("pid", .int(Int(ProcessInfo.processInfo.processIdentifier))),
            ("uptime", .int(Int((now - started) * 1000))), ("%mem", .double(0.5)), ("%cpu", .double(0.1)),
            ("allow_destructive", .bool(configuration.destructiveActions)),
          ])
        )
      ])
  }
}
