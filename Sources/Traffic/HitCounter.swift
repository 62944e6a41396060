import Foundation

/// Counts a query log's events against a profile's block set: queries and server blocks per name, then
/// per list. Keeps one record per distinct name and nothing of a line once it is counted.
public struct HitCounter: Sendable {
  private struct NameCount {
    var queries = 0
    var serverBlocked = 0
    var lists: [Int32] = []
  }

  private var attribution: Attribution
  private let since: Date?
  private let byClient: Bool
  private var names: [String: NameCount] = [:]
  private var clients: [String: (queries: Int, blocked: Int)] = [:]
  private var first: Date?
  private var last: Date?
  /// Lines read and skipped so far.
  public var findings = LogFindings()
  /// Whether every log read says which queries its server blocked.
  public var serverTellsBlocks = true

  /// A counter over `attribution`'s profile, leaving out what happened before `since`; per client only
  /// when `byClient` (addresses are otherwise never kept).
  public init(attribution: Attribution, since: Date?, byClient: Bool) {
    self.attribution = attribution
    self.since = since
    self.byClient = byClient
  }

  /// The lists that block `name` (see `Attribution`), by their names.
  public mutating func lists(for name: String) -> [String] {
    attribution.lists(for: name).map { attribution.lists[Int($0)] }
  }

  /// Counts one event; returns the lists that block its name when it is a query the profile blocks.
  @discardableResult
  public mutating func count(_ event: LogEvent) -> [Int32] {
    if let since, let time = event.time, time < since { return [] }
    switch event {
    case .query(let time, let name, _, let client):
      if let time {
        if first == nil || time < first! { first = time }
        if last == nil || time > last! { last = time }
      }
      var record = names[name] ?? NameCount(lists: attribution.lists(for: name))
      record.queries += 1
      names[name] = record
      if byClient, let client {
        clients[client, default: (0, 0)].queries += 1
        if !record.lists.isEmpty { clients[client, default: (0, 0)].blocked += 1 }
      }
      return record.lists
    case .blocked(_, let name, _):
      var record = names[name] ?? NameCount(lists: attribution.lists(for: name))
      record.serverBlocked += 1
      names[name] = record
      return []
    }
  }

  /// The report: per list, the top `top` names, and what the server answered against the profile.
  public func report(profile: String, server: String, sources: [String], top: Int) -> HitReport {
    var report = HitReport(profile: profile, server: server, sources: sources, since: since, first: first, last: last)
    report.findings = findings
    report.serverTellsBlocks = serverTellsBlocks
    var perList = attribution.lists.indices.map { _ in (queries: 0, names: 0, only: 0) }
    var blocked: [(String, NameCount)] = []
    var answered: [(String, Int)] = []
    for (name, record) in names {
      report.queries += record.queries
      if record.queries > 0 { report.distinctNames += 1 }
      report.serverBlocked += record.serverBlocked
      if record.lists.isEmpty {
        report.blockedElsewhere += record.serverBlocked
        continue
      }
      report.blocked += record.queries
      if record.queries > 0 { blocked.append((name, record)) }
      if record.queries > record.serverBlocked { answered.append((name, record.queries - record.serverBlocked)) }
      for list in record.lists where record.queries > 0 {
        perList[Int(list)].queries += record.queries
        perList[Int(list)].names += 1
        if record.lists.count == 1 { perList[Int(list)].only += record.queries }
      }
    }
    report.lists = attribution.lists.indices.compactMap { index in
      let (queries, names, only) = perList[index]
      if index == attribution.denyRules, attribution.sizes[index] == 0, queries == 0 { return nil }
      return HitReport.ListHits(
        list: attribution.lists[index], size: attribution.sizes[index], queries: queries, names: names, onlyThis: only,
        share: report.blocked > 0 ? Double(queries) / Double(report.blocked) : 0)
    }
    let names = { (lists: [Int32]) in lists.map { attribution.lists[Int($0)] } }
    report.top = blocked.sorted { ($0.1.queries, $1.0) > ($1.1.queries, $0.0) }.prefix(top).map {
      HitReport.NameHits(name: $0.0, queries: $0.1.queries, lists: names($0.1.lists))
    }
    if serverTellsBlocks {
      report.answeredButBlocked = answered.reduce(0) { $0 + $1.1 }
      report.answeredNames = answered.sorted { ($0.1, $1.0) > ($1.1, $0.0) }.prefix(top).map {
        HitReport.NameHits(name: $0.0, queries: $0.1, lists: names(self.names[$0.0]?.lists ?? []))
      }
    }
    if byClient {
      report.clients = clients.map {
        HitReport.ClientHits(client: $0.key, queries: $0.value.queries, blocked: $0.value.blocked)
      }
      .sorted { ($0.queries, $1.client) > ($1.queries, $0.client) }
    }
    return report
  }
}
