import Foundation

extension HitCounter {
  /// The report: per list, the top `top` names, and what the server answered against the profile.
  public func report(profile: String, server: String, sources: [String], top: Int) -> HitReport {
    var report = HitReport(profile: profile, server: server, sources: sources, since: since, first: first, last: last)
    report.findings = findings
    report.serverTellsBlocks = serverTellsBlocks
    var perList = attribution.lists.indices.map { _ in (queries: 0, names: 0, only: 0) }
    var blocked: [(entry: Int, queries: Int)] = []
    var answered: [(entry: Int, queries: Int)] = []
    var notApplied: [(entry: Int, queries: Int)] = []
    // With several states a name has a record under each: counted once.
    var asked = Set<String>()
    for (entry, record) in records.enumerated() {
      let queries = record.queries
      report.queries += queries
      if queries > 0 {
        if timeline.count == 1 {
          report.distinctNames += 1
        } else if asked.insert(nameOf(entry)).inserted {
          report.distinctNames += 1
        }
      }
      report.serverBlocked += record.serverBlocked
      let lists = answers[Int(record.answer)]
      if lists.isEmpty {
        report.blockedElsewhere += record.serverBlocked
        continue
      }
      report.blocked += queries
      guard queries > 0 else { continue }
      blocked.append((entry, queries))
      if record.notApplied { notApplied.append((entry, queries)) }
      if record.queries > record.serverBlocked { answered.append((entry, record.queries - record.serverBlocked)) }
      for list in lists {
        perList[Int(list)].queries += queries
        perList[Int(list)].names += 1
        if lists.count == 1 { perList[Int(list)].only += queries }
      }
    }
    report.lists = attribution.lists.indices.compactMap { index in
      let (queries, names, only) = perList[index]
      if index == attribution.denyRules, attribution.sizes[index] == 0, queries == 0 { return nil }
      return HitReport.ListHits(
        list: attribution.lists[index], size: attribution.sizes[index], queries: queries, names: names,
        onlyThis: only, share: report.blocked > 0 ? Double(queries) / Double(report.blocked) : 0)
    }
    report.top = most(blocked, top)
    report.notApplied = most(notApplied, top)
    report.notAppliedQueries = notApplied.reduce(0) { $0 + $1.queries }
    if serverTellsBlocks {
      report.answeredButBlocked = answered.reduce(0) { $0 + $1.queries }
      report.answeredNames = most(answered, top)
    }
    if byClient {
      report.clients = clients.map {
        HitReport.ClientHits(client: $0.key, queries: $0.value.queries, blocked: $0.value.blocked)
      }
      .sorted { ($0.queries, $1.client) > ($1.queries, $0.client) }
    }
    return report
  }

  /// The `top` names with the most queries (ties by name), with their lists (a name counted under
  /// several states once, with the lists of the last).
  private func most(_ counted: [(entry: Int, queries: Int)], _ top: Int) -> [HitReport.NameHits] {
    var byName: [String: (queries: Int, entry: Int)] = [:]
    for (entry, queries) in counted {
      let name = nameOf(entry)
      let known = byName[name]
      byName[name] = ((known?.queries ?? 0) + queries, max(entry, known?.entry ?? entry))
    }
    return byName.map { (name: $0.key, queries: $0.value.queries, entry: $0.value.entry) }
      .sorted { ($0.queries, $1.name) > ($1.queries, $0.name) }
      .prefix(top)
      .map { HitReport.NameHits(name: $0.name, queries: $0.queries, lists: listNames($0.entry)) }
  }
}
